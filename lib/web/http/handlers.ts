/**
 * Every route handler is one of these wrappers around a lib/ call: it waits for start-up,
 * authenticates, and turns anything thrown into the error envelope.
 */

import { randomUUID } from "node:crypto";
import type { NextRequest } from "next/server";
import { type ApiKeyPrincipal, authenticateApiKey } from "../../accounts/api-keys/authenticate-api-key";
import { type ApiScope, requireScope } from "../../accounts/api-keys/scopes";
import { authenticateUser } from "../../accounts/auth/authenticate-user";
import { type Principal, requirePermission, resolvePrincipal } from "../../accounts/members/principal";
import type { Permission } from "../../accounts/members/roles";
import { log } from "../../base/log";
import { type Db, getDb } from "../../db";
import type { User } from "../../db/schema";
import { ensureStarted } from "../../ops/startup/startup";
import { requestedAccount } from "./account-choice";
import { clientAddress } from "./client-ip";
import { applyCors, preflight, refusePreflight } from "./cors";
import { errorResponse } from "./envelope";
import { consumeRateLimit } from "./rate-limit";

type RouteParams = Record<string, string | string[] | undefined>;
type RouteContext = { params: Promise<RouteParams> };

export interface BaseContext {
  req: NextRequest;
  db: Db;
  params: Record<string, string | undefined>;
  requestId: string;
}

export function withErrors(handler: (ctx: BaseContext) => Promise<Response>) {
  return async (req: NextRequest, context?: RouteContext): Promise<Response> => {
    const requestId = req.headers.get("x-request-id") ?? randomUUID();
    try {
      await ensureStarted();
      const params = Object.fromEntries(
        Object.entries((await context?.params) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]),
      );
      const response = await handler({ req, db: await getDb(), params, requestId });
      response.headers.set("x-request-id", requestId);
      return response;
    } catch (error) {
      const response = errorResponse(error, requestId);
      response.headers.set("x-request-id", requestId);
      if (response.status >= 500)
        log.warn({ requestId, method: req.method, path: req.nextUrl.pathname, status: response.status }, "request failed");
      return response;
    }
  };
}

/**
 * `/api/user/*` about the signed-in user themself (password, sign-out everywhere, invitations,
 * their accounts): bearer JWT or dashboard session cookie, in no particular account.
 */
export function withUser(handler: (ctx: BaseContext & { user: User }) => Promise<Response>) {
  return withErrors(async (ctx) => handler({ ...ctx, user: await authenticateUser(ctx.db, ctx.req) }));
}

/**
 * `/api/user/*` acting on an account: the signed-in user, the account the request names
 * (lib/web/http/account-choice.ts), and FORBIDDEN unless the member's role holds `permission`.
 * A route whose permission depends on its body asks for the narrowest here and checks the rest
 * with requirePermission.
 */
export function withMember(permission: Permission, handler: (ctx: BaseContext & Principal) => Promise<Response>) {
  return withErrors(async (ctx) => {
    const member = await authenticateUser(ctx.db, ctx.req);
    const principal = await resolvePrincipal(ctx.db, member, requestedAccount(ctx.req), clientAddress(ctx.req.headers));
    requirePermission(principal, permission);
    return handler({ ...ctx, ...principal });
  });
}

/** What an /api/v1 route asks of its key. */
export interface ApiRoute {
  /** The scope the key must hold (lib/accounts/api-keys/scopes.ts). */
  scope: ApiScope;
  /**
   * Whether browser code may read its answers: payment routes only. Money-out routes (refunds,
   * withdrawals) never answer CORS, whatever the key.
   */
  browser: boolean;
}

/**
 * `/api/v1/*`: `x-api-key`, then the key's rate limit, then the route's scope (UNAUTHORIZED naming
 * the missing scope); every record created is owned by that key. A browser may read the answer
 * (Access-Control-Allow-Origin, errors included) only on a browser route, with a publishable key,
 * from one of the key owner's whitelisted origins: a secret key used from a page gets no CORS, so
 * the page cannot read what it did.
 */
export function withApiKey(route: ApiRoute, handler: (ctx: BaseContext & ApiKeyPrincipal) => Promise<Response>) {
  return withErrors(async (ctx) => {
    const principal = await authenticateApiKey(ctx.db, ctx.req.headers.get("x-api-key"));
    let response: Response;
    try {
      consumeRateLimit(principal.apiKey.id);
      requireScope(principal.apiKey, route.scope);
      response = await handler({ ...ctx, ...principal });
    } catch (error) {
      response = errorResponse(error, ctx.requestId);
    }
    const origin = ctx.req.headers.get("origin");
    if (!route.browser || principal.apiKey.kind !== "publishable") {
      if (origin !== null) response.headers.append("vary", "Origin");
      return response;
    }
    return applyCors(ctx.db, principal.user.id, origin, response);
  });
}

/** `OPTIONS` of a browser route (payments): succeeds for whitelisted origins. */
export function corsPreflight(methods: string) {
  return withErrors(async ({ req, db }) => preflight(db, req.headers.get("origin"), methods));
}

/** `OPTIONS` of a money-out route: always refused, so no browser ever sends the request. */
export function noCorsPreflight() {
  return withErrors(async () => refusePreflight());
}
