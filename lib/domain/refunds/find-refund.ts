/** Reading refunds: one (by id, scoped or public), a payment's, with lazy expiry of unclaimed claims. */

import { asc, eq } from "drizzle-orm";
import { commonRefusal } from "../../base/errors";
import { isUuid } from "../../base/validation";
import type { Db } from "../../db";
import { paymentSessions, type Refund, refunds, tokens, withdrawals } from "../../db/schema";
import { expireDueClaims } from "./refund-records";
import type { RefundSource } from "./refund-view";

/** Who may see a refund: the API key that created its payment or it, the payment's user (dashboard), or anyone with its id (the claim page). */
export type RefundScope = { apiKeyId: number } | { userId: number } | "public";

const selection = {
  refund: refunds,
  token: { symbol: tokens.symbol, decimals: tokens.decimals },
  network: paymentSessions.network,
  sessionApiKeyId: paymentSessions.apiKeyId,
  withdrawal: { id: withdrawals.id, txHash: withdrawals.txHash },
};

export async function findRefund(db: Db, scope: RefundScope, refundId: string): Promise<RefundSource> {
  if (!isUuid(refundId)) throw commonRefusal("NOT_FOUND", "not-found", "refund not found");
  await expireDueClaims(db, eq(refunds.id, refundId));
  const [row] = await db
    .select(selection)
    .from(refunds)
    .innerJoin(paymentSessions, eq(paymentSessions.id, refunds.sessionId))
    .innerJoin(tokens, eq(tokens.id, paymentSessions.tokenId))
    .leftJoin(withdrawals, eq(withdrawals.refundId, refunds.id))
    .where(eq(refunds.id, refundId));
  if (!row || !inScope(scope, row.refund, row.sessionApiKeyId)) throw commonRefusal("NOT_FOUND", "not-found", "refund not found");
  return { refund: row.refund, token: row.token, network: row.network, withdrawal: row.withdrawal };
}

/** A payment's refunds, oldest first (the caller checked the payment is in scope). */
export async function listSessionRefunds(db: Db, sessionId: string): Promise<RefundSource[]> {
  await expireDueClaims(db, eq(refunds.sessionId, sessionId));
  const rows = await db
    .select(selection)
    .from(refunds)
    .innerJoin(paymentSessions, eq(paymentSessions.id, refunds.sessionId))
    .innerJoin(tokens, eq(tokens.id, paymentSessions.tokenId))
    .leftJoin(withdrawals, eq(withdrawals.refundId, refunds.id))
    .where(eq(refunds.sessionId, sessionId))
    .orderBy(asc(refunds.createdAt), asc(refunds.id));
  return rows.map((row) => ({ refund: row.refund, token: row.token, network: row.network, withdrawal: row.withdrawal }));
}

function inScope(scope: RefundScope, refund: Refund, sessionApiKeyId: number | null): boolean {
  if (scope === "public") return true;
  if ("userId" in scope) return refund.userId === scope.userId;
  return refund.apiKeyId === scope.apiKeyId || sessionApiKeyId === scope.apiKeyId;
}
