/**
 * The sessions whose deposit addresses the engine's balance poller reads for BNB
 * (lib/engine/scanner/native-watch.ts; wired in lib/ops/jobs/steps.ts): what "offers BNB" means is
 * the payments' rule — a session priced in a BNB token, or a fiat session with a BNB quote — so it
 * is answered here, not in the engine. Only pending sessions are open; of one that left that
 * state the engine learns its deadline (expiry or cancel, as session-state.ts counts) or that it
 * completed. What the balance ledger needs of the deposits (which addresses ever received BNB, how
 * much up to a block) is answered here too (lib/engine/scanner/native-balance-ledger.ts).
 */
import { type AnyColumn, and, eq, exists, inArray, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { deposits, paymentSessions, sessionQuotes, tokens } from "../../db/schema";
import { NATIVE_SPELLINGS, NATIVE_TOKEN } from "../../engine/chain/native";
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

/** `column = any($1::text[])`: one parameter for the whole list (1,000 IN parameters plan ~5× slower). */
const anyOf = (column: AnyColumn, values: readonly string[]) => sql`${column} = any(${sql.param(values)}::text[])`;

/** Of these addresses, those that ever received a recorded BNB deposit (the poller asks a chunk at a time). */
async function withNativeDeposits(db: Db, network: string, addresses: readonly string[]): Promise<string[]> {
  const rows = await db
    .selectDistinct({ address: deposits.toAddress })
    .from(deposits)
    .where(
      and(eq(deposits.network, network), anyOf(deposits.toAddress, addresses), inArray(deposits.tokenContract, [...NATIVE_SPELLINGS])),
    );
  return rows.map((r) => r.address);
}

/** BNB deposits recorded into the addresses in blocks up to `block`, per address. */
function nativeReceived(db: Db, network: string, addresses: string[], block: bigint) {
  return db
    .select({ address: deposits.toAddress, total: sql<string>`sum(${deposits.amount})::text` })
    .from(deposits)
    .where(
      and(
        eq(deposits.network, network),
        anyOf(deposits.toAddress, addresses),
        inArray(deposits.tokenContract, [...NATIVE_SPELLINGS]),
        lte(deposits.blockNumber, block),
      ),
    )
    .groupBy(deposits.toAddress);
}

export const nativeWatch: NativeWatchPort = { open: openNativeSessions, facts: sessionFacts, withNativeDeposits, nativeReceived };
