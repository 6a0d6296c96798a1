import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The import rules the team holds, stated by layer folder: a file's layer is the folder it sits in
 * (lib/<layer>/…), so a folder added to a layer is governed the day it appears. Lower layers never
 * import higher ones; no two folders import each other, directly or round a loop; and what the
 * job drivers load (the engine and the job steps) never reaches the web layer or Next.js. Nothing
 * outside app/ imports app/ (tests and benchmarks drive its route handlers, nothing else of it),
 * and no file of lib/ or components/ runs over 300 lines.
 */

/** Installed packages and build output: not ours to govern (sdk/ and examples/ have their own). */
const NOT_SOURCE = new Set(["node_modules", "dist", ".next"]);

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return NOT_SOURCE.has(entry.name) ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

const IMPORT = /(?:import|export)[^"';]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s+["']([^"']+)["']/gm;

/** Where an import lands, as a path from the repository root ("lib/engine/chain/keys", "app/…"), or null for a package. */
function target(file: string, spec: string): string | null {
  if (spec.startsWith("@/")) return normalize(spec.slice(2));
  if (spec.startsWith(".")) return normalize(join(dirname(file), spec));
  return null;
}

/** The file an import lands on (extension and index resolved), or null for a package or a non-source file. */
function resolveFile(to: string): string | null {
  for (const candidate of [`${to}.ts`, `${to}.tsx`, join(to, "index.ts"), join(to, "index.tsx"), to]) {
    if (existsSync(candidate) && statSync(candidate).isFile() && /\.(ts|tsx)$/.test(candidate)) return candidate;
  }
  return null;
}

const importCache = new Map<string, { spec: string; to: string | null }[]>();
function importsOf(file: string): { spec: string; to: string | null }[] {
  let found = importCache.get(file);
  if (!found) {
    found = [...readFileSync(file, "utf8").matchAll(IMPORT)]
      .map((m) => m[1] ?? m[2] ?? m[3] ?? "")
      .map((spec) => ({ spec, to: target(file, spec) }));
    importCache.set(file, found);
  }
  return found;
}

/** Bottom to top. Each layer may import the layers before it and itself, nothing above. */
const LAYERS = ["base", "db", "engine", "accounts", "domain", "ops", "web"] as const;
type Layer = (typeof LAYERS)[number];

/** What each layer may import of lib/ besides itself (stricter than "everything below" where the tree allows). */
const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  base: [],
  db: ["base"],
  engine: ["base", "db"],
  accounts: ["base", "db"],
  domain: ["base", "db", "engine", "accounts"],
  ops: ["base", "db", "engine", "accounts", "domain"],
  web: ["base", "db", "engine", "accounts", "domain", "ops"],
};

/** Layers made of one folder (their subfolders are part of it); the others hold one folder per area. */
const SINGLE_FOLDER: readonly Layer[] = ["base", "db"];

function layerOf(path: string): Layer | null {
  const [root, layer] = path.split("/");
  return root === "lib" && (LAYERS as readonly string[]).includes(layer ?? "") ? (layer as Layer) : null;
}

/** The folder a lib path belongs to: lib/base, lib/db, or lib/<layer>/<area> (subfolders such as forwarding/batched count as their area). */
function folderOf(path: string): string | null {
  const layer = layerOf(path);
  if (!layer) return null;
  const parts = path.split("/");
  if (SINGLE_FOLDER.includes(layer)) return parts.slice(0, 2).join("/");
  return parts.length > 3 ? parts.slice(0, 3).join("/") : null;
}

const under = (folders: string[]) => (to: string | null) => to !== null && folders.some((f) => to === f || to.startsWith(`${f}/`));

/** A lib/ import that leaves the importer's layer for one it may not import (null when allowed). */
function layerBreak(file: string, to: string | null): string | null {
  if (to === null || !to.startsWith("lib/")) return null;
  const from = layerOf(file);
  const into = layerOf(to);
  if (!from) return null;
  if (!into) return `${to} is in no layer`;
  return into === from || MAY_IMPORT[from].includes(into) ? null : `${from} → ${into}`;
}

const LIB = sourceFiles("lib");

/** Source files outside app/: the code, which never imports app/, and what drives it (tests, benchmarks). */
const ROOT_FILES = readdirSync(".").filter((name) => /\.(ts|tsx|mts)$/.test(name) && statSync(name).isFile());
const OUTSIDE_APP = {
  code: [...["components", "lib", "sdk", "scripts", "inngest", "examples"].flatMap(sourceFiles), ...ROOT_FILES],
  drivers: [...sourceFiles("tests"), ...sourceFiles("bench")],
};
const intoApp = (to: string | null) => to === "app" || to?.startsWith("app/") === true;
/** A route handler module (app/…/route.ts): the HTTP edge, which a test calls as a client would. */
const isRouteHandler = (to: string) => /^app\/(.+\/)?route(\.tsx?)?$/.test(to);

/** Inside a layer: the order the engine's own folders keep (the chain and the ledger are what the rest is built on). */
const RULES: { name: string; files: string[]; forbidden: (to: string | null, spec: string) => boolean }[] = [
  {
    name: "chain plumbing (lib/engine/chain, lib/engine/ledger) never imports the scanner, forwarding or dev tooling built on it",
    files: [...sourceFiles("lib/engine/chain"), ...sourceFiles("lib/engine/ledger")],
    forbidden: under(["lib/engine/scanner", "lib/engine/forwarding", "lib/engine/dev"]),
  },
  {
    name: "webhooks take ready-made events: no import back into payments or withdrawals",
    files: sourceFiles("lib/domain/webhooks"),
    forbidden: under(["lib/domain/payments", "lib/domain/withdrawals"]),
  },
  {
    name: "nothing in lib/ imports app/ or inngest/ (the drivers call lib, never the other way)",
    files: LIB,
    forbidden: (to) => to?.startsWith("app/") === true || to === "inngest" || to?.startsWith("inngest/") === true,
  },
  {
    name: "nothing in lib/ imports components/",
    files: LIB,
    forbidden: (to) => to === "components" || to?.startsWith("components/") === true,
  },
  {
    name: "routes, pages, components and the root files (proxy.ts, instrumentation.ts) reach the database only through lib/: no import of lib/db or drizzle-orm",
    files: [...sourceFiles("app"), ...sourceFiles("components"), ...ROOT_FILES],
    forbidden: (to, spec) => under(["lib/db"])(to) || spec === "drizzle-orm" || spec.startsWith("drizzle-orm/"),
  },
  {
    name: "money out has one front door: lib/domain/transfers (one transfer, as withdrawals, refunds and approvals send it) imports none of its callers",
    files: sourceFiles("lib/domain/transfers"),
    forbidden: under(["lib/domain/withdrawals", "lib/domain/refunds", "lib/domain/payouts", "lib/domain/approvals", "lib/ops/jobs"]),
  },
  {
    name: "settlement is one-way: lib/domain/withdrawals imports nothing of lib/domain/refunds (it is told through an injected onSettled)",
    files: sourceFiles("lib/domain/withdrawals"),
    forbidden: under(["lib/domain/refunds"]),
  },
  {
    name: "pricing is below what sells: lib/domain/pricing imports nothing of payments, payment links or refunds (they call it)",
    files: sourceFiles("lib/domain/pricing"),
    forbidden: under(["lib/domain/payments", "lib/domain/payment-links", "lib/domain/refunds"]),
  },
  {
    name: "nothing outside app/ imports app/ (components, lib, sdk, scripts, inngest, examples, root files): server actions and loaders live in lib/web/dashboard/<area>/",
    files: OUTSIDE_APP.code,
    forbidden: intoApp,
  },
  {
    name: "tests and benchmarks import of app/ only route handlers (app/…/route.ts: the HTTP edge, called as a client would), never a page, layout or action",
    files: OUTSIDE_APP.drivers,
    forbidden: (to) => intoApp(to) && !isRouteHandler(to ?? ""),
  },
  {
    name: "the web layer's plumbing (lib/web/http) imports no domain area: a page's own data (the nav's badge, say) is its area's loader",
    files: sourceFiles("lib/web/http"),
    forbidden: under(["lib/domain"]),
  },
  {
    name: "money out reaches the ledger through lib/domain/transfers (reserve → record → send, and how a transfer settled): no other lib/domain area signs, broadcasts, replaces or tops up gas itself",
    files: sourceFiles("lib/domain").filter((file) => !file.startsWith("lib/domain/transfers/")),
    forbidden: under([
      "lib/engine/ledger/signing",
      "lib/engine/ledger/broadcast",
      "lib/engine/ledger/replace",
      "lib/engine/ledger/gas-top-up",
      "lib/engine/ledger/nonces",
    ]),
  },
];

/**
 * Inside lib/domain, tiers bottom to top: telling the merchant (webhooks, then notifications over
 * its channels) < setup (a merchant's domains, tokens, pricing, plans, gas, idempotency) < money
 * in (payments, payment links) < money out. An area imports only areas of its own tier or below.
 */
const DOMAIN_TIERS: Record<string, number> = {
  webhooks: 0,
  notifications: 1,
  "merchant-domains": 2,
  tokens: 2,
  pricing: 2,
  plans: 2,
  gas: 2,
  idempotency: 2,
  payments: 3,
  "payment-links": 3,
  refunds: 4,
  withdrawals: 4,
  transfers: 4,
  payouts: 4,
  "approval-requests": 4,
  approvals: 4,
};
const domainArea = (path: string | null) => (path?.startsWith("lib/domain/") ? path.split("/")[2] : undefined);

/** An import from one lib/domain area into an area of a higher tier (null when allowed). */
function domainOrderBreak(file: string, to: string | null): string | null {
  const from = domainArea(file);
  const into = domainArea(to);
  if (!from || !into || from === into) return null;
  const [a, b] = [DOMAIN_TIERS[from], DOMAIN_TIERS[into]];
  if (a === undefined || b === undefined) return `${a === undefined ? from : into} has no tier`;
  return b > a ? `${from} (tier ${a}) → ${into} (tier ${b})` : null;
}

/** Lines of a source file (a last line without its newline counts too). */
const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
/** Files you can read at once: none in lib/ or components/ over this many lines. */
const MAX_LINES = 300;
const tooLong = (files: string[]) => files.filter((file) => lineCount(readFileSync(file, "utf8")) > MAX_LINES);

/** Folder → the folders it imports. */
function folderGraph(files: string[], extra: [string, string][] = []): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const edge = (a: string, b: string) => {
    if (a === b) return;
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a)?.add(b);
  };
  for (const file of files) {
    const from = folderOf(file);
    if (!from) continue;
    for (const { to } of importsOf(file)) {
      const into = to && folderOf(to);
      if (into) edge(from, into);
    }
  }
  for (const [a, b] of extra) edge(a, b);
  return graph;
}

/** Every loop of folders, each as its strongly connected set (Tarjan), sorted. */
function folderCycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) {
        onStack.delete(w);
        component.push(w);
      }
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles.sort((a, b) => a.join().localeCompare(b.join()));
}

/** The files a set of entry points load, following lib/ imports to their files (the import closure). */
function closure(entries: string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [...entries];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const { spec, to } of importsOf(file)) {
      if (to === null) {
        packages.add(spec);
        continue;
      }
      const resolved = resolveFile(to);
      if (resolved && !files.has(resolved)) queue.push(resolved);
    }
  }
  return { files, packages };
}

/**
 * What the job drivers (the embedded runner, the Inngest functions) load: the engine, and the job
 * steps and schedule they run. The engine stays inside base, db and engine; neither reaches the
 * web layer, nor Next.js or React (a worker process runs them without a Next.js server).
 */
const ENGINE_ENTRIES = [
  ...sourceFiles("lib/engine"),
  "lib/ops/jobs/steps.ts",
  "lib/ops/jobs/schedule.ts",
  "lib/ops/jobs/embedded-runner.ts",
];
const WEB_ONLY_PACKAGE = (spec: string) => /^(next|next-auth|react|react-dom)(\/|$)/.test(spec);

describe("layering", () => {
  it("every lib/ source file sits in a layer folder (lib/<layer>/…)", () => {
    expect(LIB.filter((file) => layerOf(file) === null)).toEqual([]);
  });

  it("every file of a layer with areas sits in an area folder (lib/<layer>/<area>/…)", () => {
    expect(LIB.filter((file) => folderOf(file) === null)).toEqual([]);
  });

  describe.each(LAYERS.map((layer) => ({ layer, may: MAY_IMPORT[layer].join(", ") || "nothing else in lib/" })))(
    "lib/$layer imports only itself and: $may",
    ({ layer }) => {
      const files = sourceFiles(`lib/${layer}`);
      it("governs some files", () => expect(files.length).toBeGreaterThan(0));
      it.each(files)("%s", (file) => {
        expect(importsOf(file).flatMap(({ spec, to }) => (layerBreak(file, to) ? [`${spec} (${layerBreak(file, to)})`] : []))).toEqual([]);
      });
    },
  );

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

  it(`no file in lib/ or components/ runs over ${MAX_LINES} lines`, () => {
    expect(tooLong([...LIB, ...sourceFiles("components")])).toEqual([]);
  });

  it("every lib/domain area has its tier, and imports only its own tier or below", () => {
    const areas = new Set(sourceFiles("lib/domain").flatMap((f) => (f.split("/").length > 3 ? [domainArea(f) ?? ""] : [])));
    expect([...areas].filter((area) => DOMAIN_TIERS[area] === undefined)).toEqual([]);
    expect(
      sourceFiles("lib/domain").flatMap((file) =>
        importsOf(file).flatMap(({ spec, to }) => (domainOrderBreak(file, to) ? [`${file}: ${spec} (${domainOrderBreak(file, to)})`] : [])),
      ),
    ).toEqual([]);
  });

  it("no folder under lib/ imports a folder that imports it back, directly or round a loop", () => {
    expect(folderCycles(folderGraph(LIB))).toEqual([]);
  });

  it("the engine and the job steps never load the web layer, Next.js or React (the import closure)", () => {
    const { files, packages } = closure(ENGINE_ENTRIES);
    expect([...files].filter((f) => layerOf(f) === "web")).toEqual([]);
    expect([...packages].filter(WEB_ONLY_PACKAGE)).toEqual([]);
  });

  it("the engine's closure stays in base, db and engine", () => {
    const { files } = closure(sourceFiles("lib/engine"));
    expect([...files].filter((f) => !["base", "db", "engine"].includes(layerOf(f) ?? ""))).toEqual([]);
  });

  it("would catch a break of each rule", () => {
    const layerBreaks: [string, string][] = [
      ["lib/engine/ledger/record.ts", "@/lib/domain/payments/session-view"],
      ["lib/engine/forwarding/sweep-batch.ts", "../../ops/custody/balances"],
      ["lib/base/log.ts", "../engine/chain/rpc-errors"],
      ["lib/base/config/index.ts", "../../engine/chain/networks"],
      ["lib/db/client.ts", "../base/../web/http/envelope"],
      ["lib/domain/withdrawals/send.ts", "../../web/http/idempotency"],
      ["lib/domain/payments/create-session.ts", "@/lib/ops/startup/startup"],
      ["lib/accounts/users/two-factor.ts", "@/lib/domain/payments/find-session"],
      ["lib/ops/jobs/steps.ts", "@/lib/web/checkout/checkout-hub"],
      // A folder added to a layer is governed at once, and a lib/ folder outside every layer is refused.
      ["lib/engine/new-area/thing.ts", "@/lib/domain/refunds/refund-state"],
      ["lib/domain/payments/create-session.ts", "@/lib/newfolder/thing"],
    ];
    for (const [file, spec] of layerBreaks) expect(layerBreak(file, target(file, spec)), `${file} → ${spec}`).not.toBeNull();
    const allowed: [string, string][] = [
      ["lib/engine/forwarding/sweep-batch.ts", "../chain/multicall"],
      ["lib/base/log.ts", "./error-text"],
      ["lib/domain/payments/record-transfers.ts", "@/lib/engine/scanner/scanner"],
      ["lib/web/http/handlers.ts", "@/lib/ops/startup/startup"],
    ];
    for (const [file, spec] of allowed) expect(layerBreak(file, target(file, spec)), `${file} → ${spec}`).toBeNull();

    const breaks: [number, string, string][] = [
      [0, "lib/engine/chain/service-addresses.ts", "../forwarding/sweep-contracts"],
      [1, "lib/domain/webhooks/outbox.ts", "@/lib/domain/payments/session-view"],
      [2, "lib/domain/payments/create-session.ts", "@/app/api/v1/payment/create/route"],
      [2, "lib/ops/jobs/steps.ts", "@/inngest/client"],
      [3, "lib/web/dashboard/domains/loaders.ts", "@/components/domains/deliveries-query"],
      [4, "app/dashboard/page.tsx", "drizzle-orm"],
      [4, "app/dashboard/page.tsx", "@/lib/db"],
      [4, "components/domains/domain-card.tsx", "@/lib/db/schema"],
      [4, "components/tokens/catalogue-list.tsx", "../../lib/db/client"],
      [5, "lib/domain/transfers/send-transfer.ts", "../withdrawals/confirm-withdrawals"],
      [5, "lib/domain/transfers/record-transfer.ts", "@/lib/domain/refunds/refund-payouts"],
      [5, "lib/domain/transfers/open-spend.ts", "../payouts/send-batch"],
      [6, "lib/domain/withdrawals/withdrawal-records.ts", "../refunds/refund-payouts"],
      [7, "lib/domain/pricing/quote-tokens.ts", "../payments/create-session"],
      [7, "lib/domain/pricing/price-tokens.ts", "@/lib/domain/refunds/refundable"],
      // A component calling a server action of app/ (as ~30 did), lib reaching a page, a script a route.
      [8, "components/tokens/catalogue-list.tsx", "@/app/dashboard/_actions/tokens"],
      [8, "components/account/change-password-form.tsx", "../../app/_actions/account"],
      [8, "lib/web/dashboard/tokens/actions.ts", "../../../../app/dashboard/tokens/page"],
      [8, "scripts/admin.ts", "../app/api/health/route"],
      [8, "proxy.ts", "./app/layout"],
      [9, "tests/unit/custom-token-form.test.ts", "@/app/dashboard/_actions/tokens"],
      [9, "tests/integration/members.test.ts", "@/app/dashboard/members/page"],
      [9, "bench/checkout.ts", "../app/pay/[sessionId]/page"],
      // A payout chunk signing or sending by itself, beside the transfer's door.
      [11, "lib/domain/payouts/record-chunk.ts", "../../engine/ledger/signing"],
      [11, "lib/domain/payouts/send-batch.ts", "@/lib/engine/ledger/broadcast"],
      [11, "lib/domain/refunds/refund-payouts.ts", "../../engine/ledger/replace"],
      [11, "lib/domain/payouts/record-chunk.ts", "../../engine/ledger/gas-top-up"],
    ];
    for (const [rule, file, spec] of breaks) expect(RULES[rule]?.forbidden(target(file, spec), spec), `${file} → ${spec}`).toBe(true);
    expect(
      RULES[4]?.forbidden(target("app/dashboard/page.tsx", "@/lib/web/dashboard/overview/loaders"), "@/lib/web/dashboard/overview/loaders"),
    ).toBe(false);
    // Tests and benchmarks drive route handlers; components reach actions in lib/web/dashboard.
    const allowedOutside: [number, string, string][] = [
      [9, "tests/integration/health.test.ts", "@/app/api/health/route"],
      [9, "bench/checkout.ts", "../app/api/checkout/[sessionId]/events/route"],
      [8, "components/tokens/catalogue-list.tsx", "@/lib/web/dashboard/tokens/actions"],
      [8, "lib/web/dashboard/tokens/actions.ts", "../../../domain/tokens/register-token"],
      [11, "lib/domain/payouts/record-chunk.ts", "../transfers/record-transfer"],
      [11, "lib/domain/payouts/settle-batches.ts", "../../engine/ledger/settle"],
    ];
    for (const [rule, file, spec] of allowedOutside)
      expect(RULES[rule]?.forbidden(target(file, spec), spec), `${file} → ${spec}`).toBe(false);

    // A file one line over the limit, with or without its last newline; one at the limit passes.
    expect(lineCount("x\n".repeat(MAX_LINES + 1)) > MAX_LINES).toBe(true);
    expect(lineCount(`${"x\n".repeat(MAX_LINES)}x`) > MAX_LINES).toBe(true);
    expect(lineCount("x\n".repeat(MAX_LINES)) > MAX_LINES).toBe(false);

    // The root files and lib/web/http.
    expect(RULES[4]?.forbidden(target("proxy.ts", "@/lib/db"), "@/lib/db")).toBe(true);
    expect(RULES[10]?.forbidden(target("lib/web/http/page.ts", "../../domain/approvals/inbox"), "../../domain/approvals/inbox")).toBe(true);
    expect(RULES[10]?.forbidden(target("lib/web/http/page.ts", "../../accounts/members/roles"), "../../accounts/members/roles")).toBe(
      false,
    );

    // The order inside lib/domain: upward imports are caught, downward and sideways ones allowed, a new area must be placed.
    const upward: [string, string][] = [
      ["lib/domain/webhooks/outbox.ts", "../notifications/events"],
      ["lib/domain/notifications/outbox.ts", "@/lib/domain/payments/session-view"],
      ["lib/domain/tokens/find-own-token.ts", "../payments/create-session"],
      ["lib/domain/payments/create-session.ts", "@/lib/domain/refunds/refundable"],
      ["lib/domain/merchant-domains/add-domain.ts", "../transfers/record-transfer"],
      ["lib/domain/subscriptions/renew.ts", "../payments/create-session"],
    ];
    for (const [file, spec] of upward) expect(domainOrderBreak(file, target(file, spec)), `${file} → ${spec}`).not.toBeNull();
    const downward: [string, string][] = [
      ["lib/domain/refunds/refund-events.ts", "../payments/session-view"],
      ["lib/domain/payments/create-session.ts", "../pricing/quote-tokens"],
      ["lib/domain/notifications/webhook-channel.ts", "../webhooks/dispatch"],
      ["lib/domain/transfers/record-transfer.ts", "../withdrawals/withdrawal-records"],
      ["lib/domain/payments/create-session.ts", "../../engine/chain/networks"],
    ];
    for (const [file, spec] of downward) expect(domainOrderBreak(file, target(file, spec)), `${file} → ${spec}`).toBeNull();

    // A new import that closes a loop between two folders, or round three.
    const withLoop = (edges: [string, string][]) => folderCycles(folderGraph(LIB, edges));
    expect(withLoop([["lib/engine/chain", "lib/engine/ledger"]])).not.toEqual([]);
    expect(withLoop([["lib/domain/tokens", "lib/domain/payments"]])).not.toEqual([]);
    expect(withLoop([["lib/ops/custody", "lib/ops/health"]])).not.toEqual([]);
  });
});

/**
 * Tables owned by their layer: each owner's tables sit in its folder of lib/db/schema, behind its
 * entry point (engine/, merchants/, payments/ index.ts; lib/db/schema/index.ts gathers them for
 * drizzle-kit). lib/engine imports of lib/db/schema only its own entry points — its tables, the
 * service's own facts (app-state) and the shared column types — and reaches the payments' and
 * merchants' records through ports (the scanner's TransferRecorder and ScanWatch, forwarding's
 * depositBook, the ledger's gasPayers), never their tables, whatever the import names.
 */
const SCHEMA = "lib/db/schema";
const SCHEMA_OWNERS = ["engine", "merchants", "payments"] as const;
const ENGINE_SCHEMA_ENTRIES = [`${SCHEMA}/engine`, `${SCHEMA}/app-state`, `${SCHEMA}/columns`];
const intoSchema = (to: string | null) => to !== null && (to === SCHEMA || to.startsWith(`${SCHEMA}/`));

/** An import of lib/db/schema by an engine file that is not one of the engine's entry points (null when allowed). */
function engineSchemaBreak(file: string, spec: string): string | null {
  const to = target(file, spec);
  if (!intoSchema(to) || ENGINE_SCHEMA_ENTRIES.some((entry) => to === entry || to === `${entry}/index`)) return null;
  return `${file} → ${spec}`;
}

/** The files an entry point re-exports (`export * from "./x"`), as paths without extension. */
const reExports = (entry: string) =>
  [...readFileSync(entry, "utf8").matchAll(/^export \* from "(\.[^"]+)";$/gm)].map((m) => normalize(join(dirname(entry), m[1] ?? "")));
const withoutExtension = (file: string) => file.replace(/\.ts$/, "");

describe("tables owned by their layer", () => {
  it("lib/engine imports of lib/db/schema only its own entry points (engine/, app-state, columns)", () => {
    const files = sourceFiles("lib/engine");
    expect(files.length).toBeGreaterThan(0);
    expect(files.flatMap((file) => importsOf(file).flatMap(({ spec }) => engineSchemaBreak(file, spec) ?? []))).toEqual([]);
  });

  it.each(SCHEMA_OWNERS)("lib/db/schema/%s has its entry point, which re-exports each of its table files", (owner) => {
    const folder = `${SCHEMA}/${owner}`;
    const entry = `${folder}/index.ts`;
    expect(existsSync(entry)).toBe(true);
    const tables = sourceFiles(folder)
      .filter((file) => file !== entry)
      .map(withoutExtension)
      .sort();
    expect(reExports(entry).sort()).toEqual(tables);
  });

  it("lib/db/schema/index.ts (what drizzle-kit reads) gathers every owner's entry point and the loose files", () => {
    const loose = readdirSync(SCHEMA)
      .filter((name) => /\.ts$/.test(name) && name !== "index.ts" && name !== "columns.ts")
      .map((name) => withoutExtension(join(SCHEMA, name)));
    expect(reExports(`${SCHEMA}/index.ts`).sort()).toEqual([...SCHEMA_OWNERS.map((owner) => `${SCHEMA}/${owner}`), ...loose].sort());
  });

  it("would catch a read of another owner's tables, or of the engine's own past its entry point, and lets the entry points through", () => {
    const file = "lib/engine/scanner/scanner.ts";
    for (const spec of [
      "../../db/schema",
      "@/lib/db/schema",
      "../../db/schema/index",
      "@/lib/db/schema/merchants/domains",
      "../../db/schema/payments",
      "../../db/schema/payments/deposits",
      "../../db/schema/merchants",
      "../../db/schema/engine/forwards",
      "../../db/schema/abuse-counters",
    ])
      expect(engineSchemaBreak(file, spec), spec).not.toBeNull();
    for (const spec of [
      "../../db/schema/engine",
      "@/lib/db/schema/engine",
      "../../db/schema/app-state",
      "../../db/schema/columns",
      "../../db",
    ])
      expect(engineSchemaBreak(file, spec), spec).toBeNull();
    expect(engineSchemaBreak("lib/engine/forwarding/batched/batch-entries.ts", "../../../db/schema/engine")).toBeNull();
    expect(engineSchemaBreak("lib/engine/forwarding/batched/batch-entries.ts", "../../../db/schema")).not.toBeNull();
    // The import forms the check reads: named, type-only, side-effect and dynamic.
    const forms = [
      `import { paymentSessions } from "../../db/schema";`,
      `import type { Deposit } from "../../db/schema/payments";`,
      `import "../../db/schema/merchants";`,
      `const { tokens } = await import("../../db/schema/merchants/tokens");`,
    ];
    for (const source of forms) {
      const specs = [...source.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
      expect(
        specs.some((spec) => engineSchemaBreak(file, spec) !== null),
        source,
      ).toBe(true);
    }
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

/**
 * One door for signing: only lib/engine/ledger takes a wallet's nonce, signs with a key of the
 * service, or records signed bytes (signing.ts: signAndRecord, signReplacement, signDelegation);
 * only the engine builds the key ring — the ledger to sign, lib/engine/chain to derive addresses
 * (serviceAddresses() hands them to every other reader).
 */
describe("one door for signing", () => {
  const FILES = ["lib", "app", "inngest", "scripts"].flatMap((dir) => sourceFiles(dir));
  const inFolders = (folders: string[]) => (file: string) => folders.some((f) => file.startsWith(`${f}/`));
  const inLedger = inFolders(["lib/engine/ledger"]);
  /** A signature made with an account: a transaction, an authorization, a message; or a signing account asked of the key ring. */
  const SIGNS = /\.(signTransaction|signAuthorization|signMessage|signTypedData|signer)\s*\(/;
  /** The wallets' nonce streams: the table, the module that takes from them, the module that records signed bytes. */
  const NONCE_TABLE = /\bwalletNonces\b/;
  const LEDGER_ONLY = ["lib/engine/ledger/nonces", "lib/engine/ledger/record", "lib/engine/chain/nonces"];
  const ledgerOnlyImports = (file: string) =>
    inLedger(file) ? [] : importsOf(file).flatMap(({ spec, to }) => (to !== null && LEDGER_ONLY.includes(to) ? [spec] : []));
  const BUILDS_KEY_RING = /\bkeyRingFor\s*\(|\bnew\s+KeyRing\s*\(/;
  const mayBuildKeyRing = inFolders(["lib/engine/chain", "lib/engine/ledger"]);
  const text = (file: string) => readFileSync(file, "utf8");

  it("only lib/engine/ledger signs or takes nonces", () => {
    expect(FILES.filter((file) => !inLedger(file) && SIGNS.test(text(file)))).toEqual([]);
    expect(FILES.filter((file) => !inLedger(file) && !file.startsWith("lib/db/") && NONCE_TABLE.test(text(file)))).toEqual([]);
    expect(FILES.flatMap((file) => ledgerOnlyImports(file).map((spec) => `${file} → ${spec}`))).toEqual([]);
  });

  it("the key ring is built only in lib/engine/chain and lib/engine/ledger", () => {
    expect(FILES.filter((file) => !mayBuildKeyRing(file) && BUILDS_KEY_RING.test(text(file)))).toEqual([]);
  });

  it("governs the files that sign and derive today", () => {
    expect(FILES.filter((file) => SIGNS.test(text(file)))).toEqual([join("lib", "engine", "ledger", "signing.ts")]);
    expect(FILES.filter((file) => BUILDS_KEY_RING.test(text(file))).length).toBeGreaterThan(1);
  });

  it("would catch a break of each rule", () => {
    for (const source of [
      `const raw = await keys.signer("withdrawal", domainId).signTransaction({ chain, nonce });`,
      `const raw = await signer.signTransaction({ chain, chainId: chain.id, type: "legacy", nonce });`,
      `authorization: await signer.signAuthorization({ address: contracts.delegate, chainId, nonce })`,
      `const signer = keys.signer("deposit", session.depositIndex);`,
    ])
      expect(SIGNS.test(source), source).toBe(true);
    expect(SIGNS.test(`const raw = await signAndRecord(tx, { network, wallet, kind: "sweep", chainCount, transaction });`)).toBe(false);
    expect(NONCE_TABLE.test(`await tx.insert(walletNonces).values({ network, address, nextNonce: chainCount });`)).toBe(true);
    const breaks: [string, string][] = [
      ["lib/domain/transfers/record-transfer.ts", "../../engine/ledger/nonces"],
      ["lib/engine/forwarding/classic/forward-sweep.ts", "../../ledger/record"],
      ["lib/ops/custody/recover-bnb.ts", "@/lib/engine/ledger/nonces"],
      ["lib/engine/forwarding/batched/sweep-batch.ts", "../../chain/nonces"],
    ];
    const importing = (file: string, spec: string) => LEDGER_ONLY.includes(target(file, spec) ?? "") && !inLedger(file);
    for (const [file, spec] of breaks) expect(importing(file, spec), `${file} → ${spec}`).toBe(true);
    expect(importing("lib/engine/ledger/signing.ts", "./nonces")).toBe(false);
    expect(importing("lib/domain/transfers/record-transfer.ts", "../../engine/ledger/signing")).toBe(false);

    for (const source of [`const keys = keyRingFor(getConfig().masterMnemonic);`, `const ring = new KeyRing(mnemonic);`])
      expect(BUILDS_KEY_RING.test(source), source).toBe(true);
    expect(BUILDS_KEY_RING.test(`const tank = serviceAddresses().gasTank();`)).toBe(false);
    expect(mayBuildKeyRing("lib/web/dashboard/overview.ts")).toBe(false);
    expect(mayBuildKeyRing("lib/engine/forwarding/batched/sweep-batch.ts")).toBe(false);
    expect(mayBuildKeyRing("lib/engine/chain/wallet-addresses.ts")).toBe(true);
  });
});
