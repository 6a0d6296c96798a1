/**
 * The webhook events of payment sessions (payment.completed, .partial, .expired, .cancelled,
 * .late): their data is the API's status view plus what a receiver needs to route it. Written to
 * the outbox in the transaction that changes the sessions, which also announces the change to open
 * checkout pages (session-changes.ts).
 */

import { inArray } from "drizzle-orm";
import type { Db } from "../../db";
import { type PaymentSession, tokens } from "../../db/schema";
import { audienceOf, notify } from "../notifications/outbox";
import { announceSessionChanges } from "./session-changes";
import { type QuoteRow, quotesOf } from "./session-quotes";
import type { PaymentEventType } from "./session-state";
import { toStatusView } from "./session-view";

export interface SessionEvents {
  session: PaymentSession;
  types: PaymentEventType[];
}

/** `data` of a payment event: the status view, plus what a receiver needs to route it. */
export function sessionEventData(
  session: PaymentSession,
  token: { symbol: string; decimals: number; contractAddress: string },
  quotes?: readonly QuoteRow[],
) {
  return {
    ...toStatusView({ session, token, quotes }),
    network: session.network,
    metadata: (session.metadata as Record<string, unknown> | null) ?? null,
    domainId: session.domainId,
  };
}

/** Payment events of sessions just changed in `tx` (rows as persisted after the change). */
export async function enqueueSessionEvents(tx: Db, changes: SessionEvents[], now = new Date()): Promise<number> {
  await announceSessionChanges(
    tx,
    changes.map((c) => c.session.id),
  );
  const relevant = changes.flatMap(({ session, types }) =>
    types.length > 0 && session.domainId !== null ? [{ session, types, domainId: session.domainId }] : [],
  );
  if (relevant.length === 0) return 0;
  const audience = await audienceOf(
    tx,
    relevant.map((c) => c.domainId),
  );
  const addressed = relevant.filter((c) => audience.listens(c.domainId));
  if (addressed.length === 0) return 0;
  const tokenRows = await tx
    .select({ id: tokens.id, symbol: tokens.symbol, decimals: tokens.decimals, contractAddress: tokens.contractAddress })
    .from(tokens)
    .where(inArray(tokens.id, [...new Set(addressed.map((c) => c.session.tokenId))]));
  const tokenOf = new Map(tokenRows.map((t) => [t.id, t]));
  const quotes = await quotesOf(
    tx,
    addressed.filter((c) => c.session.currency !== null).map((c) => c.session.id),
  );
  return notify(
    tx,
    addressed.flatMap(({ session, types }) =>
      types.map((type) => ({
        domainId: session.domainId,
        type,
        orderKey: `session:${session.id}`,
        // biome-ignore lint/style/noNonNullAssertion: tokenRows were read for the token ids of these sessions, which reference tokens by foreign key, and tokens are never deleted
        data: sessionEventData(session, tokenOf.get(session.tokenId)!, quotes.get(session.id)),
      })),
    ),
    now,
    audience,
  );
}
