/**
 * The payer's choice of token on a fiat-priced session (docs/design.md §23): the session then asks for
 * that token's locked quote. token_id, amount and rate always mean "the token the payer is asked
 * for now"; choosing rewrites them, and nothing else. Not the status (the decider's, session-state.ts),
 * not the window (the quotes hold until the session's expiresAt, whichever token is chosen).
 *
 * Only while nothing has arrived: once part is paid, the rest is asked in the token already paid.
 * The session row is locked as the scanner's recording locks it, so a choice and a deposit are
 * ordered: a deposit recorded first makes the choice a refusal, and a choice committed first still
 * lets the earliest deposit decide the settlement token (record-transfers.ts).
 */

import { and, eq } from "drizzle-orm";
import { commonRefusal } from "../../base/errors";
import type { Db } from "../../db";
import { paymentSessions, sessionQuotes } from "../../db/schema";
import { paymentRefusal } from "./reasons";
import { announceSessionChanges } from "./session-changes";

export interface ChosenToken {
  tokenId: number;
  amount: bigint;
  rate: string;
}

/** Asks the session for `tokenId` at its quote; refuses (and changes nothing) unless it may. */
export async function chooseSessionToken(db: Db, sessionId: string, tokenId: number, now = new Date()): Promise<ChosenToken> {
  return db.transaction(async (tx) => {
    // NO KEY UPDATE, as a plain UPDATE takes: a deposit insert's foreign-key check (KEY SHARE) never waits on it.
    const [session] = await tx
      .select({
        currency: paymentSessions.currency,
        status: paymentSessions.status,
        expiresAt: paymentSessions.expiresAt,
        receivedAmount: paymentSessions.receivedAmount,
      })
      .from(paymentSessions)
      .where(eq(paymentSessions.id, sessionId))
      .for("no key update");
    if (!session) throw commonRefusal("NOT_FOUND", "not-found", "payment session not found");
    if (session.currency === null)
      throw paymentRefusal("VALIDATION_ERROR", "payment-not-fiat", "this payment is priced in a token; there is no token to choose");
    const status = session.status === "pending" && session.expiresAt <= now ? "expired" : session.status;
    if (status !== "pending")
      throw paymentRefusal("VALIDATION_ERROR", "payment-not-pending", `this payment is already ${status}; nothing changed`);
    if (session.receivedAmount > 0n) {
      throw paymentRefusal(
        "VALIDATION_ERROR",
        "payment-partly-paid",
        "part of this payment has already arrived, so the rest is asked in the token already paid; nothing changed",
      );
    }
    const [quote] = await tx
      .select({ amount: sessionQuotes.amount, rate: sessionQuotes.rate, source: sessionQuotes.source, quotedAt: sessionQuotes.quotedAt })
      .from(sessionQuotes)
      .where(and(eq(sessionQuotes.sessionId, sessionId), eq(sessionQuotes.tokenId, tokenId)));
    if (!quote) throw paymentRefusal("VALIDATION_ERROR", "token-not-offered", "this payment does not offer that token; nothing changed");

    // Guarded as well as locked: a choice never lands on a session that is no longer pending and unpaid.
    const written = await tx
      .update(paymentSessions)
      .set({
        tokenId,
        amount: quote.amount,
        rate: quote.rate,
        rateSource: quote.source,
        ratedAt: quote.quotedAt,
        tokenChosenAt: now,
        updatedAt: now,
      })
      .where(and(eq(paymentSessions.id, sessionId), eq(paymentSessions.status, "pending"), eq(paymentSessions.receivedAmount, 0n)))
      .returning({ id: paymentSessions.id });
    // Cannot happen: the row is locked and was checked pending and unpaid just above.
    if (written.length !== 1) throw new Error(`session ${sessionId} changed under its lock`);
    await announceSessionChanges(tx, [sessionId]); // open checkout pages re-read it now
    return { tokenId, amount: quote.amount, rate: quote.rate };
  });
}
