/** A merchant's withdrawal as a payout (lib/domain/transfers): recorded in one transaction, not yet sent. */

import type { Db } from "../../db";
import type { RecordedWithdrawal as RecordedRow } from "../../db/schema";
import { recordTransfer, reserveTransfer } from "../transfers/record-transfer";
import type { SendWithdrawalInput } from "./schemas";

export interface RecordedWithdrawal {
  withdrawal: RecordedRow;
  tokenSymbol: string;
  tokenDecimals: number;
}

/** Who sends: an API key of the user, or the user from the dashboard (apiKeyId null). */
export interface WithdrawalSender {
  userId: number;
  apiKeyId: number | null;
  /** The member who sent it from the dashboard (an approval's requester, who cannot approve it). */
  memberId?: number;
}

/**
 * Records a withdrawal from the domain's wallet in `db`'s transaction (its own when `db` is the
 * pool), signed with the next nonce of that wallet; nothing is recorded unless the transfer can
 * succeed (reserveTransfer). The caller sends it (sendRecorded) only once the transaction has committed.
 */
export async function recordWithdrawal(
  db: Db,
  sender: WithdrawalSender,
  input: SendWithdrawalInput,
  options: { afterTopUp?: boolean } = {},
): Promise<RecordedWithdrawal> {
  return db.transaction(async (tx) => {
    const reserved = await reserveTransfer(
      tx,
      {
        wallet: { domainId: input.domainId },
        tokenId: input.tokenId,
        to: input.toAddress,
        amount: input.amount,
        for: { userId: sender.userId, apiKeyId: sender.apiKeyId },
      },
      options,
    );
    const withdrawal = await recordTransfer(tx, reserved);
    return { withdrawal, tokenSymbol: reserved.token.symbol, tokenDecimals: reserved.token.decimals };
  });
}
