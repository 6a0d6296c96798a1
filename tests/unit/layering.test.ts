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

/** Where an import lands, as a path from the repository root ("lib/chain/keys", "app/…"), or null for a package. */
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
  "lib/payments",
  "lib/checkout",
  "lib/withdrawals",
  "lib/domains",
  "lib/tokens",
  "lib/packages",
  "lib/api-keys",
  "lib/users",
  "lib/webhooks",
  "lib/gas",
  "lib/custody",
  "lib/dashboard",
];
const under = (folders: string[]) => (to: string | null) => to !== null && folders.some((f) => to === f || to.startsWith(`${f}/`));
const FOUNDATION_FILES = [
  "lib/errors.ts",
  "lib/log.ts",
  "lib/error-text.ts",
  "lib/validation.ts",
  "lib/pagination.ts",
  ...sourceFiles("lib/config"),
];
/** Where the foundation may import from: itself and the database layer. */
const inFoundation = (to: string) =>
  FOUNDATION_FILES.includes(`${to}.ts`) ||
  to === "lib/config" ||
  to.startsWith("lib/config/") ||
  to === "lib/db" ||
  to.startsWith("lib/db/");

/**
 * The import rules the team holds (README, Layout). Each names the files it governs and what
 * they may not import; a new break fails here.
 */
const RULES: { name: string; files: string[]; forbidden: (to: string | null, spec: string) => boolean }[] = [
  {
    name: "domain code never imports HTTP (lib/http)",
    files: DOMAIN.flatMap((d) => sourceFiles(d)),
    forbidden: under(["lib/http"]),
  },
  {
    name: "the chain engine (lib/chain, lib/ledger, lib/scanner, lib/forwarding, lib/dev) never imports domain, custody, webhooks or HTTP",
    files: ["lib/chain", "lib/ledger", "lib/scanner", "lib/forwarding", "lib/dev"].flatMap((d) => sourceFiles(d)),
    forbidden: under([...DOMAIN, "lib/http"]),
  },
  {
    name: "chain plumbing (lib/chain, lib/ledger) never imports the scanner, forwarding or dev tooling built on it",
    files: [...sourceFiles("lib/chain"), ...sourceFiles("lib/ledger")],
    forbidden: under(["lib/scanner", "lib/forwarding", "lib/dev"]),
  },
  {
    name: "the foundation (config, errors, log, validation, db) imports nothing of the service above it",
    files: [...FOUNDATION_FILES, ...sourceFiles("lib/db").filter((f) => !f.endsWith("ledger-backfill.ts"))],
    forbidden: (to) => to?.startsWith("lib/") === true && !inFoundation(to),
  },
  {
    name: "webhooks take ready-made events: no import back into payments or withdrawals",
    files: sourceFiles("lib/webhooks"),
    forbidden: under(["lib/payments", "lib/withdrawals"]),
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
      [0, "lib/withdrawals/send.ts", "@/lib/http/idempotency"],
      [1, "lib/forwarding/sweep-batch.ts", "@/lib/custody/balances"],
      [1, "lib/ledger/record.ts", "@/lib/payments/session-view"],
      [1, "lib/forwarding/sweep-batch.ts", "@/lib/payments/session-view"],
      [2, "lib/chain/service-addresses.ts", "@/lib/forwarding/sweep-contracts"],
      [3, "lib/log.ts", "./chain/rpc-errors"],
      [3, "lib/config/index.ts", "../chain/networks"],
      [4, "lib/webhooks/outbox.ts", "@/lib/payments/session-view"],
      [5, "lib/payments/create-session.ts", "@/app/api/v1/payment/create/route"],
      [5, "lib/jobs/steps.ts", "@/inngest/client"],
      [5, "lib/forwarding/forwarder.ts", "@/inngest/events"],
      [6, "app/dashboard/page.tsx", "drizzle-orm"],
      [6, "app/dashboard/page.tsx", "@/lib/db"],
      [6, "app/dashboard/payments/page.tsx", "@/lib/db/schema"],
      [6, "app/dashboard/_actions/tokens.ts", "../../../lib/db/client"],
      [6, "components/domains/domain-card.tsx", "@/lib/db/schema"],
      [6, "components/dashboard/format.tsx", "drizzle-orm/pg-core"],
      [7, "lib/dashboard/pages.ts", "@/components/domains/deliveries-query"],
      [7, "lib/dashboard/overview.ts", "@/components/dashboard/format"],
    ];
    for (const [rule, file, spec] of breaks) expect(RULES[rule]!.forbidden(target(file, spec), spec), `${file} → ${spec}`).toBe(true);
    expect(RULES[1]!.forbidden(target("lib/forwarding/sweep-batch.ts", "../chain/multicall"), "../chain/multicall")).toBe(false);
    expect(RULES[3]!.forbidden(target("lib/log.ts", "./error-text"), "./error-text")).toBe(false);
    expect(RULES[6]!.forbidden(target("app/dashboard/page.tsx", "@/lib/dashboard/pages"), "@/lib/dashboard/pages")).toBe(false);
    expect(RULES[6]!.forbidden(target("components/domains/domain-card.tsx", "@/lib/dashboard/webhooks"), "@/lib/dashboard/webhooks")).toBe(
      false,
    );
  });
});

/** Only recorded bytes reach a node: the ledger's broadcast is the one place a raw transaction is sent from. */
describe("one way out for signed transactions", () => {
  const SEND = /["']eth_sendRawTransaction["']\s*,\s*params/;
  const senders = ["lib", "app", "inngest", "scripts"]
    .flatMap((dir) => sourceFiles(dir))
    .filter((file) => SEND.test(readFileSync(file, "utf8")));

  it("sends raw transactions from lib/ledger/broadcast.ts only", () => {
    expect(senders).toEqual([join("lib", "ledger", "broadcast.ts")]);
  });

  it("would catch another sender", () => {
    expect(SEND.test(`client.request({ method: "eth_sendRawTransaction", params: [raw] })`)).toBe(true);
  });
});
