import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/web/openapi/document";

/**
 * Every route under app/api is in the OpenAPI document, or on EXCLUDED with the reason why: a new
 * route cannot stay undocumented by accident. The document describes each one as its handler
 * really authenticates: withMember → bearer, X-Account-Id and the route's permission as
 * `x-permission`; withUser → bearer only; withErrors → no authentication; withApiKey → an API key.
 */

type Json = Record<string, any>;
const doc = openApiDocument() as unknown as Json;
const API = join(process.cwd(), "app", "api");

/**
 * Routes left out of the document, each with why. They are ours, not the merchant's: nothing a
 * merchant's code or a payer's client should call.
 */
const EXCLUDED: Record<string, string> = {
  // Any unknown /api path: the JSON 404 envelope instead of Next's HTML page. Not an endpoint.
  "/api/{...path}": "catch-all 404",
  // next-auth's own sign-in, callback and session endpoints, used by the dashboard's session cookie.
  "/api/auth/{...nextauth}": "next-auth internals",
  // Inngest's serve() endpoint: only the Inngest server calls it, signed with INNGEST_SIGNING_KEY.
  "/api/inngest": "job engine",
  // Operations: liveness (ping), readiness for the load balancer (health), Prometheus (metrics, own token).
  "/api/ping": "operations",
  "/api/health": "operations",
  "/api/metrics": "operations",
  // The hosted checkout page's own calls (/pay/<sessionId> and the embed): state, live events,
  // the payer's cancel, the embed's page and its short-lived token. Merchants use /api/v1/payment.
  "/api/checkout/{sessionId}": "our checkout page",
  "/api/checkout/{sessionId}/cancel": "our checkout page",
  "/api/checkout/{sessionId}/embed": "our checkout page",
  "/api/checkout/{sessionId}/events": "our checkout page",
  "/api/checkout/{sessionId}/token": "our checkout page",
  // The document itself.
  "/api/v1/openapi.json": "the document",
};

/**
 * Methods no path of the document lists: OPTIONS is the CORS preflight of /api/v1 (described by
 * each operation's `x-cors`); HEAD is answered by the catch-all only.
 */
const UNLISTED_METHODS = new Set(["OPTIONS", "HEAD"]);

interface Route {
  path: string;
  file: string;
  /** Exported HTTP method → the wrapper it is built with (withMember("read"), withUser, …), when one. */
  methods: Map<string, string | null>;
}

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(path);
    return entry.name === "route.ts" ? [path] : [];
  });
}

/** app/api/user/members/[userId]/route.ts → /api/user/members/{userId}; [...path] → {...path}. */
function documentPath(file: string): string {
  const folders = relative(join(process.cwd(), "app"), file).split(sep).slice(0, -1);
  return `/${folders.map((f) => f.replace(/^\[(.+)\]$/, "{$1}")).join("/")}`;
}

function exportedMethods(source: string): Map<string, string | null> {
  const methods = new Map<string, string | null>();
  for (const m of source.matchAll(
    /export\s+(?:const\s+(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s*=\s*([^;]*)|(?:async\s+)?function\s+(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b)/g,
  )) {
    const wrapper = m[2] ? (/^(with\w+(?:\("[\w-]+")?|\w+)/.exec(m[2].trim())?.[1] ?? null) : null;
    methods.set((m[1] ?? m[3]) as string, wrapper);
  }
  // `export { handler as GET, post as POST }`
  for (const list of source.matchAll(/export\s*\{([^}]*)\}/g))
    for (const m of (list[1] as string).matchAll(/\bas\s+(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/g)) methods.set(m[1] as string, null);
  return methods;
}

const routes: Route[] = routeFiles(API).map((file) => ({
  path: documentPath(file),
  file: relative(process.cwd(), file),
  methods: exportedMethods(readFileSync(file, "utf8")),
}));
const documented = (path: string, method: string) => doc.paths[path]?.[method.toLowerCase()] as Json | undefined;

describe("the OpenAPI document covers app/api", () => {
  it("finds the route files and their methods (the walk itself works)", () => {
    expect(routes.length).toBeGreaterThan(50);
    const members = routes.find((r) => r.path === "/api/user/members/{userId}");
    expect(members && [...members.methods]).toEqual([
      ["PATCH", 'withMember("members"'],
      ["DELETE", 'withMember("members"'],
    ]);
    expect([...(routes.find((r) => r.path === "/api/auth/{...nextauth}")?.methods.keys() ?? [])]).toEqual(["GET", "POST"]);
    expect([...(routes.find((r) => r.path === "/api/health")?.methods.keys() ?? [])]).toEqual(["GET"]);
  });

  it("documents every method of every route that is not on the exclusion list", () => {
    const missing = routes
      .filter((r) => !(r.path in EXCLUDED))
      .flatMap((r) => [...r.methods.keys()].filter((m) => !UNLISTED_METHODS.has(m) && !documented(r.path, m)).map((m) => `${m} ${r.path}`));
    expect(missing, "document these (lib/web/openapi) or add them to EXCLUDED with why").toEqual([]);
  });

  it("excludes only routes that exist and are not documented", () => {
    const paths = new Set(routes.map((r) => r.path));
    for (const path of Object.keys(EXCLUDED)) {
      expect(paths.has(path), `${path} is on EXCLUDED but has no route file`).toBe(true);
      expect(doc.paths[path], `${path} is both excluded and documented`).toBeUndefined();
    }
  });

  it("documents no operation without a route that answers it", () => {
    const answered = new Set(routes.flatMap((r) => [...r.methods.keys()].map((m) => `${m} ${r.path}`)));
    const phantom = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      ["get", "post", "put", "patch", "delete"].filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(phantom.filter((op) => !answered.has(op))).toEqual([]);
  });

  it("describes each operation's authentication as its route's wrapper does it", () => {
    let checked = 0;
    for (const route of routes) {
      if (route.path in EXCLUDED) continue;
      for (const [method, wrapper] of route.methods) {
        const op = documented(route.path, method);
        if (!op) continue;
        const where = `${method} ${route.path} (${route.file}: ${wrapper})`;
        const accountHeader = (op.parameters ?? []).some((p: Json) => p.$ref === "#/components/parameters/AccountId");
        const permission = /^withMember\("([\w-]+)"$/.exec(wrapper ?? "")?.[1];
        if (permission) {
          expect(op.security, where).toEqual([{ bearer: [] }]);
          expect(op["x-permission"], where).toBe(permission);
          expect(accountHeader, where).toBe(true);
          expect(op.responses["403"], where).toBeDefined();
        } else if (wrapper === "withUser") {
          expect(op.security, where).toEqual([{ bearer: [] }]);
          expect(op["x-permission"], where).toBeUndefined();
          expect(accountHeader, where).toBe(false);
        } else if (wrapper === "withErrors") {
          expect(op.security, where).toEqual([]);
          expect(accountHeader, where).toBe(false);
        } else {
          expect(wrapper, where).toBe("withApiKey");
          expect(op.security, where).toEqual([{ apiKey: [expect.any(String)] }]);
        }
        checked++;
      }
    }
    expect(checked).toBe(Object.values(doc.paths as Json).flatMap((item) => Object.keys(item)).length);
  });

  it("declares X-Account-Id once, as a reusable header parameter", () => {
    expect(doc.components.parameters.AccountId).toMatchObject({ in: "header", name: "X-Account-Id" });
    expect(doc.components.parameters.AccountId.required).not.toBe(true);
  });
});
