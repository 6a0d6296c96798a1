/**
 * The reserve step of money out, the same for one transfer (record-transfer.ts), a payout batch
 * when it is recorded (lib/domain/payouts/record-batch.ts) and each of its chunks when it is signed
 * (lib/domain/payouts/record-chunk.ts). Inside the caller's transaction, after the account's lock:
 *
 *   lockPayingWallet (money-out-locks.ts)  step 5: the wallet's nonce row
 *   walletAtOneBlock                        the wallet's mined count, BNB and token balance as of one block
 *   assertWalletCovers                      the tokens (or BNB) it sends, net of what its open sends still
 *                                           take (ShortOfTokensError: nothing recorded)
 *   assertGasCovered                        BNB for its gas beside that (ShortOfGasError: withGasTopUps,
 *                                           send-transfer.ts, tops the wallet up outside the transaction
 *                                           and runs the whole recording again)
 */

import { and, eq, gte } from "drizzle-orm";
import { type Address, erc20Abi } from "viem";
import type { Db } from "../../db";
import { type Token, withdrawals } from "../../db/schema";
import { isNativeToken } from "../../engine/chain/native";
import { publicClientFor } from "../../engine/chain/networks";
import { openPayoutItemsTotal } from "./batch-reserve";
import { gasHeldBack, openSpend } from "./open-spend";
import { insufficientBnb, insufficientTokens, rpc, ShortOfGasError } from "./transfer-errors";

/** The paying wallet as of one block: its mined count and balances agree. */
export interface WalletNow {
  chainCount: number;
  bnb: bigint;
  /** Of the token sent (the BNB balance again when it is BNB itself). */
  tokenBalance: bigint;
}

/** What the wallet's open sends still take of its BNB, as the gas check needs it. */
export interface WalletHeld {
  open: { gas: bigint; value: bigint };
  /** The BNB value held back from this send (open sends' values; for BNB itself, also open payout items). */
  valueHeld: bigint;
}

type SentToken = Pick<Token, "id" | "network" | "contractAddress" | "decimals">;

/**
 * Read under the wallet's lock (lockPayingWallet): a send mined in between is neither counted as
 * open nor missing from the balance.
 */
export async function walletAtOneBlock(token: SentToken, from: Address): Promise<WalletNow> {
  const client = publicClientFor(token.network);
  const native = isNativeToken(token.contractAddress);
  return rpc(async () => {
    const blockNumber = await client.getBlockNumber({ cacheTime: 0 });
    const [count, wei, held] = await Promise.all([
      client.getTransactionCount({ address: from, blockNumber }),
      client.getBalance({ address: from, blockNumber }),
      native
        ? Promise.resolve(0n)
        : client.readContract({
            address: token.contractAddress as Address,
            abi: erc20Abi,
            functionName: "balanceOf",
            args: [from],
            blockNumber,
          }),
    ]);
    return { chainCount: count, bnb: wei, tokenBalance: native ? wei : held };
  });
}

/**
 * Whether the wallet holds `units` of the token beside what its open sends still take: the gas
 * and BNB value of its unmined ledger rows (every kind), the tokens of its submitted withdrawals
 * not mined and of payout items not sent or not mined (batches awaiting approval included).
 */
export async function assertWalletCovers(
  tx: Db,
  send: { token: SentToken; from: Address; units: bigint },
  wallet: WalletNow,
): Promise<WalletHeld> {
  const { token, from, units } = send;
  const open = await openSpend(tx, token.network, from, wallet.chainCount);
  if (isNativeToken(token.contractAddress)) {
    // BNB in flight is in the ledger's values; items of BNB batches not recorded yet are held too.
    const reserved = open.value + (await openPayoutItemsTotal(tx, token.network, from, token.id, Number.MAX_SAFE_INTEGER));
    // The value may not take gas: what the open transactions need, or the tank's BNB still here if that is more.
    const gasHeld = await gasHeldBack(tx, token.network, from, open.gas);
    if (wallet.bnb - reserved - gasHeld < units) throw insufficientBnb(from, wallet.bnb, units, reserved, gasHeld);
    return { open, valueHeld: reserved };
  }
  const reserved = await openTokens(tx, token, from, wallet.chainCount);
  if (wallet.tokenBalance - reserved < units) throw insufficientTokens(from, wallet.tokenBalance, units, reserved, token.decimals);
  return { open, valueHeld: open.value };
}

/**
 * Whether the wallet's BNB pays this send's gas (`ownGas`, wei) beside the BNB value it sends
 * (`value`), what is held back for other sends (`held.valueHeld`) and their gas. The send's gas may
 * come from the tank's credit: what must remain is the open transactions' gas and its own.
 */
export function assertGasCovered(
  wallet: WalletNow,
  held: WalletHeld,
  send: { network: string; domainId: number; from: Address; value: bigint; ownGas: bigint },
): void {
  const { network, domainId, from, value, ownGas } = send;
  const gas = held.open.gas + ownGas;
  if (wallet.bnb - held.valueHeld - value < gas)
    throw new ShortOfGasError(network, domainId, from, held.valueHeld + value + gas, ownGas, gas);
}

/** The tokens of `token` the wallet's open sends will still take: withdrawals not yet mined, and open payout items. */
async function openTokens(tx: Db, token: SentToken, from: Address, chainCount: number): Promise<bigint> {
  const pending = await tx
    .select({ amount: withdrawals.amount })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.network, token.network),
        eq(withdrawals.fromAddress, from),
        eq(withdrawals.tokenId, token.id),
        eq(withdrawals.status, "submitted"),
        gte(withdrawals.nonce, chainCount),
      ),
    );
  const withdrawing = pending.reduce((sum, w) => sum + w.amount, 0n);
  return withdrawing + (await openPayoutItemsTotal(tx, token.network, from, token.id, chainCount));
}
