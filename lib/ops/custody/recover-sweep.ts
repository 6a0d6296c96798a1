/**
 * Moving one wallet's stranded balances (docs/design.md §16): anything of its still in flight settled
 * first, its balances read again, each transfer simulated against MAX_SWEEP_GAS, the gas topped up
 * from the tank, then one transfer per token — each a ledger row (kind "recovery") before it is
 * sent, and waited for until mined.
 */
import type { Address, Hex } from "viem";
import { getConfig } from "../../base/config";
import type { Db } from "../../db";
import { signingGasPrice } from "../../engine/chain/gas-price";
import { readHoldings } from "../../engine/chain/multicall";
import { publicClientFor } from "../../engine/chain/networks";
import { transferData } from "../../engine/forwarding/classic/forward-gas";
import { broadcastRecorded } from "../../engine/ledger/broadcast";
import { ensureGasBalance } from "../../engine/ledger/gas-top-up";
import { signAndRecord } from "../../engine/ledger/signing";
import { RECHECKING, SETTLE_WAIT_MS, settleInFlight, settleLedgerInFlight, waitForNonce } from "./recover-in-flight";
import type { StrandedBalance } from "./recover-scan";

export type SweepOutcome = (StrandedBalance & { txHash: Hex }) | (StrandedBalance & { reason: string });

/** Moves the wallet's balances to `to`: gas first (recorded, from the tank), then one transfer per token. */
export async function sweepWallet(db: Db, network: string, balances: StrandedBalance[], to: Address): Promise<SweepOutcome[]> {
  const [first] = balances;
  if (!first) return []; // the caller groups balances by wallet: a group is never empty
  const { wallet } = first;
  const client = publicClientFor(network);
  const cap = getConfig().maxSweepGas;
  try {
    await settleLedgerInFlight(db, network, wallet.address);
    await settleInFlight(network, wallet.address);
  } catch (error) {
    return balances.map((b) => ({ ...b, reason: error instanceof Error ? error.message : String(error) }));
  }
  const outcomes: SweepOutcome[] = [];
  const plans: { balance: StrandedBalance; gas: bigint }[] = [];
  // Read again: an earlier, interrupted run may have moved some already.
  const fresh = await readHoldings(
    network,
    [wallet.address],
    balances.map((b) => b.token.contract),
  );
  for (const b of balances) {
    const amount = fresh.find((h) => h.token === b.token.contract)?.balance ?? 0n;
    if (amount === 0n) continue;
    const current = { ...b, balance: amount };
    try {
      const estimate = await client.estimateGas({ account: wallet.address, to: b.token.contract, data: transferData(to, amount) });
      if (estimate > cap)
        outcomes.push({ ...current, reason: `the transfer needs ${estimate} gas, above MAX_SWEEP_GAS (${cap}); nothing was spent` });
      else plans.push({ balance: current, gas: (estimate * 13n + 9n) / 10n < cap ? (estimate * 13n + 9n) / 10n : cap });
    } catch {
      outcomes.push({ ...current, reason: "the token's transfer reverts in simulation; nothing was spent" });
    }
  }
  if (plans.length === 0) return outcomes;

  const gasPrice = await signingGasPrice(network);
  try {
    await ensureGasBalance(db, network, wallet.address, plans.reduce((sum, p) => sum + p.gas, 0n) * gasPrice);
  } catch (error) {
    return [...outcomes, ...plans.map((p) => ({ ...p.balance, reason: error instanceof Error ? error.message : String(error) }))];
  }
  const chainCount = await client.getTransactionCount({ address: wallet.address, blockTag: "pending" });
  for (const { balance, gas } of plans) {
    // A ledger row like every transaction the service signs (with an empty database too: the nonce comes from the chain then).
    const row = await db.transaction((tx) =>
      signAndRecord(tx, {
        network,
        wallet: { role: wallet.kind, index: wallet.index, address: wallet.address },
        kind: "recovery",
        chainCount,
        transaction: { type: "legacy", to: balance.token.contract, data: transferData(to, balance.balance), gas, gasPrice },
      }),
    );
    const hash = row.txHash as Hex;
    const sent = await broadcastRecorded(db, row);
    if (!sent.sent) {
      outcomes.push({ ...balance, reason: `the network refused the transfer (${sent.kind}); run recover again` });
      break; // later nonces would wait behind this one
    }
    const settled = await waitForNonce(db, row);
    if (!settled)
      outcomes.push({
        ...balance,
        reason: `sent as ${hash}, not mined within ${SETTLE_WAIT_MS / 1000} s; run recover again to wait for it`,
      });
    else if (settled === "rechecking") outcomes.push({ ...balance, reason: `sent as ${hash}; ${RECHECKING}` });
    else if (settled.kind !== "recovery" || settled.status !== "mined")
      outcomes.push({
        ...balance,
        reason: `the transfer ${settled.txHash} ${settled.status === "reverted" ? "reverted" : "was replaced"}`,
      });
    else outcomes.push({ ...balance, txHash: settled.txHash as Hex });
  }
  return outcomes;
}
