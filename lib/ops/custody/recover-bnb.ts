/**
 * `recover --include-bnb`: the BNB left on derived addresses — gas dust on deposit addresses,
 * withdrawal wallets' top-ups, every gas tank generation and the sweeper's owner — sent to the
 * same address as the tokens, each transfer a ledger row first. Runs after the tokens (their
 * moves need the tank's BNB); a balance worth less than twice its transfer fee stays. BNB a payer
 * sent (a native deposit, or BNB from a contract's internal call the scanner does not see) is moved
 * like any other; a deposit address with a forward in flight (its BNB sweep, or a token sweep's gas)
 * is left to that forward, so nothing is moved twice: run recover again once it settled.
 */
import { and, eq, inArray } from "drizzle-orm";
import { type Address, formatEther, type Hex } from "viem";
import type { Db } from "../../db";
import { forwards, IN_FLIGHT_FORWARD_STATUSES } from "../../db/schema";
import { signingGasPrice } from "../../engine/chain/gas-price";
import { MAX_GAS_TANK_GENERATIONS } from "../../engine/chain/gas-tank";
import { publicClientFor } from "../../engine/chain/networks";
import { type ServiceWallet, serviceAddresses } from "../../engine/chain/wallet-addresses";
import { broadcastRecorded } from "../../engine/ledger/broadcast";
import { signAndRecord } from "../../engine/ledger/signing";
import { RECHECKING, settleLedgerInFlight, waitForNonce } from "./recover-in-flight";

export type BnbWallet = ServiceWallet;

/** The key-only wallets (no scan needed): every gas tank generation and the sweeper's owner. */
export function serviceBnbWallets(): BnbWallet[] {
  const keys = serviceAddresses();
  return [...Array.from({ length: MAX_GAS_TANK_GENERATIONS }, (_, g) => keys.wallet("gas_tank", g)), keys.wallet("sweeper_owner", 0)];
}

/** Lists the BNB worth moving on `wallets` and, unless a dry run, sends each to `to`, the gas tanks last. */
export async function recoverBnb(
  db: Db,
  network: string,
  wallets: BnbWallet[],
  to: Address,
  options: { dryRun: boolean; print: (line: string) => void },
): Promise<{ moved: number; notMoved: number }> {
  const client = publicClientFor(network);
  const gasPrice = await signingGasPrice(network);
  // A contract as the recipient may need more than a plain transfer's 21,000.
  const gas = await client.estimateGas({ account: wallets[0]?.address ?? to, to, value: 1n }).catch(() => 21_000n);
  const fee = gas * gasPrice;
  const balances = await Promise.all(
    wallets.map(async (wallet) => ({ wallet, balance: await client.getBalance({ address: wallet.address }) })),
  );
  const moving = await forwardsInFlight(db, network, wallets);
  for (const w of balances.filter((b) => moving.has(b.wallet.address) && b.balance > fee * 2n))
    options.print(
      `  ${w.wallet.role} #${w.wallet.index} ${w.wallet.address}: left to its forward in flight (run recover again once it settled)`,
    );
  const worth = balances.filter((w) => w.balance > fee * 2n && !moving.has(w.wallet.address));
  // The gas tanks last: the other transfers need nothing from them, but a tank emptied first could not have topped anyone up.
  worth.sort((a, b) => Number(a.wallet.role === "gas_tank") - Number(b.wallet.role === "gas_tank"));
  const total = worth.reduce((sum, w) => sum + w.balance - fee, 0n);
  for (const w of worth) options.print(`  ${w.wallet.role} #${w.wallet.index} ${w.wallet.address}: ${formatEther(w.balance)} BNB`);
  options.print(
    worth.length === 0 ? "  no BNB worth moving" : `  total ${formatEther(total)} BNB (after a fee of ${formatEther(fee)} each)`,
  );
  if (options.dryRun) return { moved: 0, notMoved: 0 };

  let moved = 0;
  let notMoved = 0;
  for (const { wallet } of worth) {
    try {
      await settleLedgerInFlight(db, network, wallet.address);
      // Read again, after anything in flight settled: send all of it but the fee.
      const [balance, count] = await Promise.all([
        client.getBalance({ address: wallet.address }),
        client.getTransactionCount({ address: wallet.address, blockTag: "pending" }),
      ]);
      if (balance <= fee * 2n || (await forwardsInFlight(db, network, [wallet])).size > 0) continue;
      const row = await db.transaction((tx) =>
        signAndRecord(tx, {
          network,
          wallet,
          kind: "recovery",
          chainCount: count,
          transaction: { type: "legacy", to, value: balance - fee, gas, gasPrice },
        }),
      );
      await broadcastRecorded(db, row);
      const settled = await waitForNonce(db, row);
      if (settled !== "rechecking" && settled?.kind === "recovery" && settled.status === "mined") {
        moved++;
        options.print(`  moved ${formatEther(balance - fee)} BNB from ${wallet.role} ${wallet.address} in ${settled.txHash as Hex}`);
      } else {
        notMoved++;
        options.print(
          `  NOT moved the BNB of ${wallet.address}: ${settled === "rechecking" ? RECHECKING : settled ? `its transfer ${settled.status}` : "not mined in time; run recover again"}`,
        );
      }
    } catch (error) {
      notMoved++;
      options.print(`  NOT moved the BNB of ${wallet.address}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { moved, notMoved };
}

/** The deposit addresses among `wallets` with a forward in flight (a transaction signed that spends their BNB). */
async function forwardsInFlight(db: Db, network: string, wallets: BnbWallet[]): Promise<Set<string>> {
  const deposits = wallets.filter((w) => w.role === "deposit").map((w) => w.address);
  const busy = new Set<string>();
  for (let i = 0; i < deposits.length; i += 1000) {
    const rows = await db
      .selectDistinct({ address: forwards.fromAddress })
      .from(forwards)
      .where(
        and(
          eq(forwards.network, network),
          inArray(forwards.fromAddress, deposits.slice(i, i + 1000)),
          inArray(forwards.status, [...IN_FLIGHT_FORWARD_STATUSES]),
        ),
      );
    for (const r of rows) busy.add(r.address);
  }
  return busy;
}
