import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

const IMPORT = /(?:import|export)[^"';]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s+["']([^"']+)["']/gm;

/** Where an import lands, as a path from the repository root ("lib/engine/chain/keys", "app/…"), or null for a package. */
function target(file: string, spec: string): string | null {
  if (spec.startsWith("@/")) return spec.slice(2);
  if (spec.startsWith(".")) return relative(".", resolve(dirname(file), spec));
  return null;
}

function importsOf(file: string): { spec: string; to: string | null }[] {
  return [...readFileSync(file, "utf8").matchAll(IMPORT)]
    .map((m) => m[1] ?? m[2] ?? m[3]!)
    .map((spec) => ({ spec, to: target(file, spec) }));
}

const DOMAIN = [
  "lib/domain/payments",
  "lib/web/checkout",
  "lib/domain/withdrawals",
  "lib/domain/domains",
  "lib/domain/tokens",
  "lib/domain/plans",
  "lib/accounts/api-keys",
  "lib/accounts/users",
  "lib/domain/webhooks",
  "lib/domain/gas",
  "lib/ops/custody",
  "lib/web/dashboard",
];
const under = (folders: string[]) => (to: string | null) => to !== null && folders.some((f) => to === f || to.startsWith(`${f}/`));
const FOUNDATION_FILES = [
  "lib/base/errors.ts",
  "lib/base/log.ts",
  "lib/base/error-text.ts",
  "lib/base/validation.ts",
  "lib/base/pagination.ts",
  ...sourceFiles("lib/base/config"),
];
/** Where the foundation may import from: itself and the database layer. */
const inFoundation = (to: string) =>
  FOUNDATION_FILES.includes(`${to}.ts`) ||
  to === "lib/base/config" ||
  to.startsWith("lib/base/config/") ||
  to === "lib/db" ||
  to.startsWith("lib/db/");

/**
 * The import rules the team holds (README, Layout). Each names the files it governs and what
 * they may not import; a new break fails here.
 */
const RULES: { name: string; files: string[]; forbidden: (to: string | null, spec: string) => boolean }[] = [
  {
    name: "domain code never imports HTTP (lib/web/http)",
    files: DOMAIN.flatMap((d) => sourceFiles(d)),
    forbidden: under(["lib/web/http"]),
  },
  {
    name: "the chain engine (lib/engine/chain, lib/engine/ledger, lib/engine/scanner, lib/engine/forwarding, lib/engine/dev) never imports domain, custody, webhooks or HTTP",
    files: ["lib/engine/chain", "lib/engine/ledger", "lib/engine/scanner", "lib/engine/forwarding", "lib/engine/dev"].flatMap((d) =>
      sourceFiles(d),
    ),
    forbidden: under([...DOMAIN, "lib/web/http"]),
  },
  {
    name: "chain plumbing (lib/engine/chain, lib/engine/ledger) never imports the scanner, forwarding or dev tooling built on it",
    files: [...sourceFiles("lib/engine/chain"), ...sourceFiles("lib/engine/ledger")],
    forbidden: under(["lib/engine/scanner", "lib/engine/forwarding", "lib/engine/dev"]),
  },
  {
    name: "the foundation (config, errors, log, validation, db) imports nothing of the service above it",
    files: [...FOUNDATION_FILES, ...sourceFiles("lib/db").filter((f) => !f.endsWith("ledger-backfill.ts"))],
    forbidden: (to) => to?.startsWith("lib/") === true && !inFoundation(to),
  },
  {
    name: "webhooks take ready-made events: no import back into payments or withdrawals",
    files: sourceFiles("lib/domain/webhooks"),
    forbidden: under(["lib/domain/payments", "lib/domain/withdrawals"]),
  },
  {
    name: "nothing in lib/ imports app/ or inngest/ (the drivers call lib, never the other way)",
    files: sourceFiles("lib"),
    forbidden: (to) => to?.startsWith("app/") === true || to === "inngest" || to?.startsWith("inngest/") === true,
  },
  {
    name: "routes, pages and components reach the database only through lib/: no import of lib/db or drizzle-orm in app/ or components/",
    files: [...sourceFiles("app"), ...sourceFiles("components")],
    forbidden: (to, spec) => under(["lib/db"])(to) || spec === "drizzle-orm" || spec.startsWith("drizzle-orm/"),
  },
  {
    name: "nothing in lib/ imports components/",
    files: sourceFiles("lib"),
    forbidden: (to) => to === "components" || to?.startsWith("components/") === true,
  },
];

describe("layering", () => {
  describe.each(RULES)("$name", ({ files, forbidden }) => {
    it("governs some files", () => expect(files.length).toBeGreaterThan(0));
    it.each(files)("%s", (file) => {
      expect(
        importsOf(file)
          .filter(({ to, spec }) => forbidden(to, spec))
          .map(({ spec }) => spec),
      ).toEqual([]);
    });
  });

  it("would catch a break of each rule", () => {
    const breaks: [number, string, string][] = [
      [0, "lib/domain/withdrawals/send.ts", "@/lib/web/http/idempotency"],
      [1, "lib/engine/forwarding/sweep-batch.ts", "@/lib/ops/custody/balances"],
      [1, "lib/engine/ledger/record.ts", "@/lib/domain/payments/session-view"],
      [1, "lib/engine/forwarding/sweep-batch.ts", "@/lib/domain/payments/session-view"],
      [2, "lib/engine/chain/service-addresses.ts", "@/lib/engine/forwarding/sweep-contracts"],
      [3, "lib/base/log.ts", "./chain/rpc-errors"],
      [3, "lib/base/config/index.ts", "../chain/networks"],
      [4, "lib/domain/webhooks/outbox.ts", "@/lib/domain/payments/session-view"],
      [5, "lib/domain/payments/create-session.ts", "@/app/api/v1/payment/create/route"],
      [5, "lib/ops/jobs/steps.ts", "@/inngest/client"],
      [5, "lib/engine/forwarding/forwarder.ts", "@/inngest/events"],
      [6, "app/dashboard/page.tsx", "drizzle-orm"],
      [6, "app/dashboard/page.tsx", "@/lib/db"],
      [6, "app/dashboard/payments/page.tsx", "@/lib/db/schema"],
      [6, "app/dashboard/_actions/tokens.ts", "../../../lib/db/client"],
      [6, "components/domains/domain-card.tsx", "@/lib/db/schema"],
      [6, "components/dashboard/format.tsx", "drizzle-orm/pg-core"],
      [7, "lib/web/dashboard/pages.ts", "@/components/domains/deliveries-query"],
      [7, "lib/web/dashboard/overview.ts", "@/components/dashboard/format"],
    ];
    for (const [rule, file, spec] of breaks) expect(RULES[rule]!.forbidden(target(file, spec), spec), `${file} → ${spec}`).toBe(true);
    expect(RULES[1]!.forbidden(target("lib/engine/forwarding/sweep-batch.ts", "../chain/multicall"), "../chain/multicall")).toBe(false);
    expect(RULES[3]!.forbidden(target("lib/base/log.ts", "./error-text"), "./error-text")).toBe(false);
    expect(RULES[6]!.forbidden(target("app/dashboard/page.tsx", "@/lib/web/dashboard/pages"), "@/lib/web/dashboard/pages")).toBe(false);
    expect(
      RULES[6]!.forbidden(target("components/domains/domain-card.tsx", "@/lib/web/dashboard/webhooks"), "@/lib/web/dashboard/webhooks"),
    ).toBe(false);
  });
});

/** Only recorded bytes reach a node: the ledger's broadcast is the one place a raw transaction is sent from. */
describe("one way out for signed transactions", () => {
  const SEND = /["']eth_sendRawTransaction["']\s*,\s*params/;
  const senders = ["lib", "app", "inngest", "scripts"]
    .flatMap((dir) => sourceFiles(dir))
    .filter((file) => SEND.test(readFileSync(file, "utf8")));

  it("sends raw transactions from lib/engine/ledger/broadcast.ts only", () => {
    expect(senders).toEqual([join("lib", "engine", "ledger", "broadcast.ts")]);
  });

  it("would catch another sender", () => {
    expect(SEND.test(`client.request({ method: "eth_sendRawTransaction", params: [raw] })`)).toBe(true);
  });
});
