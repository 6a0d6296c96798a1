/**
 * Every route handler is one of these wrappers around a lib/ call: it waits for start-up,
 * authenticates, and turns anything thrown into the error envelope.
 */

import { randomUUID } from "node:crypto";
import type { NextRequest } from "next/server";
import { type ApiKeyPrincipal, authenticateApiKey } from "../api-keys/authenticate-api-key";
import { authenticateUser } from "../auth/authenticate-user";
import { type Db, getDb } from "../db";
import type { User } from "../db/schema";
import { log } from "../log";
import { ensureStarted } from "../startup";
import { applyCors, preflight } from "./cors";
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

/** `/api/user/*`: bearer JWT or dashboard session cookie. */
export function withUser(handler: (ctx: BaseContext & { user: User }) => Promise<Response>) {
  return withErrors(async (ctx) => handler({ ...ctx, user: await authenticateUser(ctx.db, ctx.req) }));
}

/**
 * `/api/v1/*`: `x-api-key`, then the key's rate limit; every record created is owned by that key.
 * Responses (errors included) carry CORS headers for the key owner's whitelisted origins.
 */
export function withApiKey(handler: (ctx: BaseContext & ApiKeyPrincipal) => Promise<Response>) {
  return withErrors(async (ctx) => {
    const principal = await authenticateApiKey(ctx.db, ctx.req.headers.get("x-api-key"));
    let response: Response;
    try {
      consumeRateLimit(principal.apiKey.id);
      response = await handler({ ...ctx, ...principal });
    } catch (error) {
      response = errorResponse(error, ctx.requestId);
    }
    return applyCors(ctx.db, principal.user.id, ctx.req.headers.get("origin"), response);
  });
}

/** `OPTIONS` for an /api/v1 route. */
export function corsPreflight(methods: string) {
  return withErrors(async ({ req, db }) => preflight(db, req.headers.get("origin"), methods));
}
