import { and, eq, isNull } from "drizzle-orm";
import { normalizeOrigin } from "../../base/normalize-origin";
import { isUuid } from "../../base/validation";
import { type Db, getDb } from "../../db";
import { domains, paymentSessions } from "../../db/schema";

/**
 * Whether the page that embeds a session's checkout (checkout.js) may hear its outcome: only a
 * domain its merchant whitelisted. The checkout then posts to exactly that origin, so a page
 * elsewhere — even one that lies about its origin — never receives it.
 */
export async function isEmbedOriginAllowed(db: Db, sessionId: string, origin: string): Promise<boolean> {
  const normalized = normalizeOrigin(origin);
  if (!normalized) return false;
  const [row] = await db
    .select({ id: domains.id })
    .from(paymentSessions)
    .innerJoin(domains, eq(domains.userId, paymentSessions.userId))
    .where(and(eq(paymentSessions.id, sessionId), eq(domains.origin, normalized), isNull(domains.deletedAt)))
    .limit(1);
  return row !== undefined;
}

/** Every origin the session's merchant whitelisted: where its checkout may be framed (CSP frame-ancestors). */
export async function embedOrigins(db: Db, sessionId: string): Promise<string[]> {
  const rows = await db
    .select({ origin: domains.origin })
    .from(paymentSessions)
    .innerJoin(domains, eq(domains.userId, paymentSessions.userId))
    .where(and(eq(paymentSessions.id, sessionId), isNull(domains.deletedAt)));
  return rows.map((r) => r.origin);
}

/**
 * The origins that may frame a page (CSP frame-ancestors), for the proxy: a checkout's embed
 * (checkout.js, /pay/<id>?embed=1) may be framed by its merchant's whitelisted origins; nothing
 * else by anyone. The proxy reaches the database only through here.
 */
export async function checkoutFrameAncestors(pathname: string, search: URLSearchParams): Promise<string[]> {
  const sessionId = /^\/pay\/([^/]+)$/.exec(pathname)?.[1];
  if (!sessionId || search.get("embed") !== "1" || !isUuid(sessionId)) return [];
  return embedOrigins(await getDb(), sessionId.toLowerCase()).catch(() => []);
}
