import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

/**
 * e2e runs the production build (`next build && next start`) on an unusual port, with its own
 * embedded database and anvil in a temporary folder, so it never talks to a developer's server.
 * Browser: Debian's chromium (Playwright's own download is not available offline).
 */
const PORT = Number(process.env.E2E_PORT ?? 3107);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), "bscpay-e2e-"));
process.env.E2E_DATA_DIR = dataDir; // workers re-evaluate this file: keep one folder

export default defineConfig({
  testDir: "tests/e2e",
  // A page test screenshots and axe-checks each state in two themes at two widths: ~50 s on a quiet
  // 2-core machine, half as much again on a busy CI machine (where a 60 s default failed one).
  timeout: 120_000,
  // .ci/run retries a failed test once (E2E_RETRIES=1) and prints any that passed only then (flaky).
  retries: Number(process.env.E2E_RETRIES ?? 0),
  workers: 1,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // Charts drawn at once (recharts honours it): a screenshot shows the bars, not their first frame.
    contextOptions: { reducedMotion: "reduce" },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    // .ci/run builds once before the tests (REUSE_BUILD=1); a run of its own builds the code as it is.
    command: process.env.REUSE_BUILD === "1" ? "npm start" : "npm run build && npm start",
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      NEXT_TELEMETRY_DISABLED: "1",
      LOCAL_CHAIN: "anvil",
      LOCAL_CHAIN_PORT: String(PORT + 10_000),
      LOCAL_CHAIN_STATE_DIR: dataDir,
      PGLITE_DIR: join(dataDir, "pglite"),
      NEXTAUTH_URL: `http://127.0.0.1:${PORT}`,
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? "",
      LOG_LEVEL: "warn",
      // Every e2e merchant signs up and signs in from 127.0.0.1: the per-address limits would
      // stop the suite, not an attacker (tests/integration/abuse-limits.test.ts covers them).
      REGISTER_RATE_LIMIT_PER_HOUR: "1000",
      LOGIN_RATE_LIMIT_PER_MINUTE: "1000",
      // A key's bucket of 600 (refilled 10 a second): tests/e2e/sdk.spec.ts empties one in seconds
      // to meet the real 429; no other test comes near it with one key.
      RATE_LIMIT_PER_MINUTE: "600",
    },
  },
});
