/** The webhook events of withdrawals, written to the outbox in the transaction that settles them. */

import { eq } from "drizzle-orm";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import { tokens, type Withdrawal } from "../../db/schema";
import { audienceOf, notify } from "../notifications/outbox";
import { toWithdrawalView } from "./withdrawal-view";

/** withdrawal.completed / withdrawal.failed, with the withdrawal as the API shows it. */
export async function enqueueWithdrawalEvent(
  tx: Db,
  withdrawal: Withdrawal,
  type: "withdrawal.completed" | "withdrawal.failed",
  now = new Date(),
): Promise<number> {
  const audience = await audienceOf(tx, [withdrawal.domainId]);
  if (!audience.listens(withdrawal.domainId)) return 0;
  const token = requireRow(
    await tx.select({ symbol: tokens.symbol, decimals: tokens.decimals }).from(tokens).where(eq(tokens.id, withdrawal.tokenId)),
    `token ${withdrawal.tokenId} of withdrawal ${withdrawal.id}`,
  );
  return notify(
    tx,
    [
      {
        domainId: withdrawal.domainId,
        type,
        orderKey: `withdrawal:${withdrawal.id}`,
        data: { ...toWithdrawalView(withdrawal, token), network: withdrawal.network },
      },
    ],
    now,
    audience,
  );
}
