import { and, eq, isNull } from "drizzle-orm";
import { normalizeOrigin } from "../../base/normalize-origin";
import type { Db } from "../../db";
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
