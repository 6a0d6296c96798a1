import { and, asc, eq, or } from "drizzle-orm";
import { AppError, commonRefusal } from "../../../base/errors";
import { formatAmount } from "../../../base/money";
import { isUuid } from "../../../base/validation";
import type { Db } from "../../../db";
import { deposits, domains, forwards, tokens } from "../../../db/schema";
import { cancelPaymentSession } from "../../../domain/payments/cancel-session";
import { findSession } from "../../../domain/payments/find-session";
import { checkoutUrl } from "../../../domain/payments/session-view";
import { explorerAddressUrl, explorerTxUrl } from "../shared/explorer";
import { fiatAmountText } from "./user-payments";

export type TimelineEvent =
  | { kind: "created"; at: string }
  | {
      kind: "deposit";
      at: string;
      txHash: string;
      txUrl: string | null;
      block: string;
      amount: string;
      token: string;
      from: string;
      late: boolean;
      counted: boolean;
    }
  | {
      kind: "forward";
      at: string;
      forwardId: number;
      status: string;
      amount: string;
      to: string;
      gasTxHash: string | null;
      gasTxUrl: string | null;
      sweepTxHash: string | null;
      sweepTxUrl: string | null;
      heldReason: string | null;
      lastError: string | null;
    }
  | { kind: "final"; at: string; status: string };

/**
 * One payment of a merchant, with what happened to it: creation, each deposit (explorer link,
 * block, amount), each sweep (gas top-up and sweep transactions, status, held reason), and its
 * final state. Another user's session is NOT_FOUND.
 */
export async function getUserPayment(db: Db, userId: number, sessionId: string) {
  if (!isUuid(sessionId)) throw commonRefusal("NOT_FOUND", "not-found", "payment not found");
  const found = await findSession(db, sessionId); // exact at read time (expires a due session)
  if (!found || found.session.userId !== userId) throw commonRefusal("NOT_FOUND", "not-found", "payment not found");
  const { session, token } = found;
  const [received, sweeps, [domain], tokenRows] = await Promise.all([
    db.select().from(deposits).where(eq(deposits.sessionId, session.id)).orderBy(asc(deposits.blockNumber), asc(deposits.logIndex)),
    db
      .select()
      .from(forwards)
      .where(
        or(
          eq(forwards.sessionId, session.id),
          and(eq(forwards.network, session.network), eq(forwards.fromAddress, session.depositAddress)),
        ),
      )
      .orderBy(asc(forwards.id)),
    session.domainId ? db.select({ origin: domains.origin }).from(domains).where(eq(domains.id, session.domainId)) : Promise.resolve([]),
    db
      .select({ contract: tokens.contractAddress, symbol: tokens.symbol, decimals: tokens.decimals })
      .from(tokens)
      .where(eq(tokens.userId, userId)),
  ]);
  const decimalsOf = (contract: string) =>
    tokenRows.find((t) => t.contract.toLowerCase() === contract.toLowerCase()) ?? {
      symbol: contract.slice(0, 8),
      decimals: token.decimals,
    };
  const fmt = (units: bigint) => formatAmount(units, token.decimals);

  const timeline: TimelineEvent[] = [{ kind: "created", at: session.createdAt.toISOString() }];
  for (const d of received) {
    const t = decimalsOf(d.tokenContract);
    timeline.push({
      kind: "deposit",
      at: d.blockTimestamp.toISOString(),
      txHash: d.txHash,
      txUrl: explorerTxUrl(d.network, d.txHash),
      block: d.blockNumber.toString(),
      amount: formatAmount(d.amount, t.decimals),
      token: t.symbol,
      from: d.fromAddress,
      late: d.late,
      counted: !d.late && d.tokenContract.toLowerCase() === token.contractAddress.toLowerCase(),
    });
  }
  for (const f of sweeps) {
    const t = decimalsOf(f.tokenContract);
    timeline.push({
      kind: "forward",
      at: (f.completedAt ?? f.heldAt ?? f.createdAt).toISOString(),
      forwardId: f.id,
      status: f.status,
      amount: formatAmount(f.amount, t.decimals),
      to: f.toAddress,
      gasTxHash: f.gasTxHash,
      gasTxUrl: f.gasTxHash ? explorerTxUrl(f.network, f.gasTxHash) : null,
      sweepTxHash: f.sweepTxHash,
      sweepTxUrl: f.sweepTxHash ? explorerTxUrl(f.network, f.sweepTxHash) : null,
      heldReason: f.heldReason,
      lastError: f.status === "completed" ? null : f.lastError,
    });
  }
  const finalAt = session.completedAt ?? session.cancelledAt ?? session.expiredAt;
  if (session.status !== "pending" && finalAt) timeline.push({ kind: "final", at: finalAt.toISOString(), status: session.status });
  // Block times are whole seconds and the others are not: order by the second, then by what
  // must come first (a deposit before the completion it caused, the completion before its sweep).
  const rank = { created: 0, deposit: 1, final: 2, forward: 3 } as const;
  const second = (at: string) => Math.floor(Date.parse(at) / 1000);
  // A chain's clock may also run a little behind ours: nothing is shown before the session's creation.
  timeline.sort((a, b) =>
    a.kind === "created" ? -1 : b.kind === "created" ? 1 : second(a.at) - second(b.at) || rank[a.kind] - rank[b.kind],
  );

  return {
    sessionId: session.id,
    status: session.status,
    network: session.network,
    token: token.symbol,
    tokenContract: token.contractAddress,
    amount: fmt(session.amount),
    /** A fiat-priced session's currency, price ("25.00") and its token's locked rate; null when priced in a token. */
    currency: session.currency,
    fiatAmount: fiatAmountText(session.currency, session.fiatAmount),
    rate: session.currency === null ? null : session.rate,
    /** Where that rate came from ("chainlink:<feed>[/<currency feed>]") and when it was read. */
    rateSource: session.currency === null ? null : session.rateSource,
    ratedAt: session.currency === null ? null : (session.ratedAt?.toISOString() ?? null),
    receivedAmount: fmt(session.receivedAmount),
    remainingAmount: session.receivedAmount >= session.amount ? "0" : fmt(session.amount - session.receivedAmount),
    lateAmount: session.lateAmount > 0n ? fmt(session.lateAmount) : null,
    overpaid: session.overpaid,
    partial: session.receivedAmount > 0n && session.receivedAmount < session.amount,
    late: session.late,
    depositAddress: session.depositAddress,
    depositAddressUrl: explorerAddressUrl(session.network, session.depositAddress),
    forwardTo: session.forwardTo,
    txHash: session.txHash,
    domain: domain?.origin ?? null,
    metadata: (session.metadata as Record<string, unknown> | null) ?? null,
    orderId: session.orderId,
    description: session.description,
    createdByApiKey: session.apiKeyId !== null,
    /** The payment link whose page created it, or null. */
    paymentLinkId: session.paymentLinkId,
    createdAt: session.createdAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    checkoutUrl: checkoutUrl(session.id),
    timeline,
  };
}

export type UserPaymentDetail = Awaited<ReturnType<typeof getUserPayment>>;

/** The dashboard's cancel: the same rule as the API's, scoped to the user instead of the key. */
export async function cancelUserPayment(db: Db, userId: number, sessionId: string) {
  if (!isUuid(sessionId)) throw commonRefusal("NOT_FOUND", "not-found", "payment not found");
  return cancelPaymentSession(db, { userId }, sessionId).catch((error: unknown) => {
    throw error instanceof AppError && error.code === "NOT_FOUND" ? commonRefusal("NOT_FOUND", "not-found", "payment not found") : error;
  });
}
