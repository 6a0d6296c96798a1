import { errorText } from "../../base/error-text";
import { log } from "../../base/log";
import type { Db } from "../../db";
import type { SessionStatus } from "../../db/schema";
import { publicClientFor } from "../../engine/chain/networks";
import { findSessionInScope, type SessionScope } from "./find-session";
import { cancelSession } from "./session-records";

/**
 * pending → cancelled. A session that is already completed, expired or cancelled is left as it
 * is, and the answer says so with its current status. The network's latest block at this moment
 * is kept with the cancel: a transfer in that block or before counts (the order was paid), one in
 * a later block is a late deposit (session-state.ts). A node that does not answer within
 * HEAD_WAIT_MS does not hold the cancel up; block time decides for that session instead.
 * `by`: the payer's cancel (the checkout page) is narrower than the merchant's (session-state.ts).
 */
export async function cancelPaymentSession(
  db: Db,
  scope: SessionScope,
  sessionId: string,
  by: "merchant" | "payer" = "merchant",
): Promise<{ message: string; status: SessionStatus }> {
  const { session: found } = await findSessionInScope(db, scope, sessionId); // scope + read-time expiry
  const atBlock = found.status === "pending" ? await latestBlock(found.network) : null;
  const { cancelled } = await cancelSession(db, sessionId, {
    kind: by === "payer" ? "cancelled-by-payer" : "cancelled-by-merchant",
    atBlock,
  });
  if (cancelled) return { message: "payment session cancelled", status: "cancelled" };
  const { session } = await findSessionInScope(db, scope, sessionId);
  return { message: `payment session is already ${session.status}; nothing changed`, status: session.status };
}

const HEAD_WAIT_MS = 3_000;

async function latestBlock(network: string): Promise<bigint | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), HEAD_WAIT_MS);
    });
    return await Promise.race([publicClientFor(network).getBlockNumber({ cacheTime: 0 }), timeout]);
  } catch (error) {
    log.warn({ network, err: errorText(error) }, "latest block unknown at cancel time; block time decides which transfers came before it");
    return null;
  } finally {
    clearTimeout(timer);
  }
}
