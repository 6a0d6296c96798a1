/**
 * Browser access to /api/v1 (payment routes only, publishable keys only — lib/web/http/handlers.ts
 * decides when to call these): a response carries Access-Control-Allow-Origin only for an origin
 * the API key's owner has whitelisted. A preflight has no API key, so it succeeds for an origin
 * that some merchant whitelisted; the real request then checks it against the key's owner.
 * Money-out routes refuse every preflight (refusePreflight).
 */

import { and, eq, isNull } from "drizzle-orm";
import { NextResponse } from "next/server";
import { normalizeOrigin } from "../../base/normalize-origin";
import type { Db } from "../../db";
import { domains } from "../../db/schema";

const ALLOW_HEADERS = "content-type, x-api-key, idempotency-key, x-request-id";
const EXPOSE_HEADERS = "retry-after, x-request-id";

export async function applyCors(db: Db, userId: number, origin: string | null, response: Response): Promise<Response> {
  if (origin === null) return response;
  response.headers.append("vary", "Origin");
  const normalised = normalizeOrigin(origin);
  if (!normalised) return response;
  const [match] = await db
    .select({ id: domains.id })
    .from(domains)
    .where(and(eq(domains.userId, userId), eq(domains.origin, normalised), isNull(domains.deletedAt)))
    .limit(1);
  if (match) {
    response.headers.set("access-control-allow-origin", origin);
    response.headers.set("access-control-expose-headers", EXPOSE_HEADERS);
  }
  return response;
}

export async function preflight(db: Db, origin: string | null, methods: string): Promise<Response> {
  const normalised = origin ? normalizeOrigin(origin) : null;
  const [match] = normalised
    ? await db
        .select({ id: domains.id })
        .from(domains)
        .where(and(eq(domains.origin, normalised), isNull(domains.deletedAt)))
        .limit(1)
    : [];
  if (!match || !origin) {
    return NextResponse.json(
      { success: false, error: { code: "DOMAIN_NOT_WHITELISTED", message: "origin is not a whitelisted domain" } },
      { status: 403, headers: { vary: "Origin" } },
    );
  }
  return new NextResponse(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": `${methods}, OPTIONS`,
      "access-control-allow-headers": ALLOW_HEADERS,
      "access-control-max-age": "600",
      vary: "Origin",
    },
  });
}

/** The preflight of a money-out route: refused for every origin, without any CORS header. */
export function refusePreflight(): Response {
  return NextResponse.json(
    {
      success: false,
      error: {
        code: "DOMAIN_NOT_WHITELISTED",
        message: "this route never answers browser calls: call it from your server with a secret API key",
      },
    },
    { status: 403, headers: { vary: "Origin" } },
  );
}
