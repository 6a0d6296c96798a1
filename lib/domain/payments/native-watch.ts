/**
 * The sessions whose deposit addresses the engine's balance poller reads for BNB
 * (lib/engine/scanner/native-watch.ts; wired in lib/ops/jobs/steps.ts): what "offers BNB" means is
 * the payments' rule — a session priced in a BNB token, or a fiat session with a BNB quote — so it
 * is answered here, not in the engine. Only pending sessions are open; of one that left that
 * state the engine learns its deadline (expiry or cancel, as session-state.ts counts) or that it
 * completed.
 */
import { and, eq, exists, inArray, or } from "drizzle-orm";
import type { Db } from "../../db";
import { paymentSessions, sessionQuotes, tokens } from "../../db/schema";
import { NATIVE_TOKEN } from "../../engine/chain/native";
import type { NativeSessionFacts, NativeWatchPort, OpenNativeSession } from "../../engine/scanner/native-watch";

async function openNativeSessions(db: Db, network: string): Promise<OpenNativeSession[]> {
  // Every merchant's BNB row of the network (one each): a session offers BNB through one of them.
  const bnb = (
    await db
      .select({ id: tokens.id })
      .from(tokens)
      .where(and(eq(tokens.network, network), eq(tokens.contractAddress, NATIVE_TOKEN)))
  ).map((t) => t.id);
  if (bnb.length === 0) return [];
  return db
    .select({ sessionId: paymentSessions.id, depositAddress: paymentSessions.depositAddress, expiresAt: paymentSessions.expiresAt })
    .from(paymentSessions)
    .where(
      and(
        eq(paymentSessions.status, "pending"),
        eq(paymentSessions.network, network),
        or(
          inArray(paymentSessions.tokenId, bnb),
          // A fiat session offers each token it holds a quote for (its primary key: an index probe per session).
          exists(
            db
              .select({ tokenId: sessionQuotes.tokenId })
              .from(sessionQuotes)
              .where(and(eq(sessionQuotes.sessionId, paymentSessions.id), inArray(sessionQuotes.tokenId, bnb))),
          ),
        ),
      ),
    );
}

async function sessionFacts(db: Db, sessionIds: string[]): Promise<NativeSessionFacts[]> {
  if (sessionIds.length === 0) return [];
  const rows = await db
    .select({
      id: paymentSessions.id,
      status: paymentSessions.status,
      expiresAt: paymentSessions.expiresAt,
      cancelledAt: paymentSessions.cancelledAt,
      cancelledAtBlock: paymentSessions.cancelledAtBlock,
    })
    .from(paymentSessions)
    .where(inArray(paymentSessions.id, sessionIds));
  // As session-state.ts decides: after a cancel, its block (or, unread, its time); else the expiry.
  return rows.map((s) => ({
    sessionId: s.id,
    settled: s.status === "completed",
    deadline: s.cancelledAt ?? s.expiresAt,
    deadlineBlock: s.cancelledAt !== null ? s.cancelledAtBlock : null,
  }));
}

export const nativeWatch: NativeWatchPort = { open: openNativeSessions, facts: sessionFacts };
