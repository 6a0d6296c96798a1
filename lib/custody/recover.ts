import { eq, max, sql } from "drizzle-orm";
import { type Address, erc20Abi, formatUnits, getAddress, type Hex, isAddress } from "viem";
import { ensureGasBalance } from "../chain/gas-top-up";
import { keyRingFor } from "../chain/keys";
import { readHoldings } from "../chain/multicall";
import { chainOf, networkConfig, publicClientFor } from "../chain/networks";
import { allocateNonce } from "../chain/nonces";
import { getConfig } from "../config";
import type { Db } from "../db";
import { rowsOf } from "../db/rows";
import { domains, paymentSessions, tokenCatalogue } from "../db/schema";
import { AppError } from "../errors";
import { transferData } from "../forwarding/classic/forward-gas";
import { broadcastRecorded } from "../ledger/broadcast";
import { recordTransaction } from "../ledger/record";
import { recoverBnb, serviceBnbWallets } from "./recover-bnb";
import { SETTLE_WAIT_MS, settleInFlight, settleLedgerInFlight, waitForNonce } from "./recover-in-flight";

/**
 * Recovery from the mnemonic alone (DESIGN.md §16): derive the deposit addresses and withdrawal
 * wallets, find every balance of the tokens the gateway accepts on them, and sweep each to one
 * address, the gas tank paying the gas. It needs no records: what is left to move is read from the
 * chain each time, so a second run moves nothing and an interrupted one picks up where it stopped
 * (a transaction still in flight from the earlier run is waited for, never sent again). Each
 * transfer it signs is a ledger row (kind "recovery") before it is sent, as every transaction is.
 */
export interface RecoverOptions {
  network: string;
  to: string;
  fromIndex?: number;
  toIndex?: number;
  dryRun?: boolean;
  /** Tokens to look for beyond the catalogue (one allowed after the database was lost, say). */
  extraTokens?: string[];
  /** Without --to-index: the scan stops after this many deposit addresses that never held anything. */
  gap?: number;
  print?: (line: string) => void;
  /** Also the BNB on every derived address (deposit dust, withdrawal wallets, gas tanks, the sweeper's owner). */
  includeBnb?: boolean;
}

export interface WalletRef {
  kind: "deposit" | "withdrawal";
  index: number;
  address: Address;
}
export interface TokenRef {
  contract: Address;
  symbol: string;
  decimals: number;
}
export interface StrandedBalance {
  wallet: WalletRef;
  token: TokenRef;
  balance: bigint;
}
export interface RecoverReport {
  network: string;
  scanned: { deposits: [number, number]; withdrawals: [number, number] };
  stranded: StrandedBalance[];
  /** Balances that could not be read (the token's balanceOf failed): unknown, so not "nothing". */
  unreadable: { wallet: WalletRef; token: TokenRef }[];
  moved: (StrandedBalance & { txHash: Hex })[];
  skipped: (StrandedBalance & { reason: string })[];
  /** With includeBnb: BNB transfers made, and those that failed. */
  bnb?: { moved: number; notMoved: number };
}

export const DEFAULT_DEPOSIT_GAP = 1000;
/** Domains are few, but many in a row may use a payout address and never fund their wallet. */
const WITHDRAWAL_GAP = 200;
const SWEEPING_AT_ONCE = 4;

export async function recoverFunds(db: Db, options: RecoverOptions): Promise<RecoverReport> {
  const print = options.print ?? (() => {});
  const network = networkConfig(options.network);
  if (!network) throw new AppError("VALIDATION_ERROR", `network ${options.network} is not configured`);
  if (!isAddress(options.to, { strict: false })) throw new AppError("VALIDATION_ERROR", "--to must be an address (0x + 40 hex digits)");
  const to = getAddress(options.to);
  const keys = keyRingFor(getConfig().masterMnemonic);
  if (serviceBnbWallets().some((w) => w.address === to))
    throw new AppError(
      "VALIDATION_ERROR",
      "--to is the gas tank (or the sweeper's owner): send the funds to an address outside the gateway",
    );

  const tokens = await tokensToFind(db, network.name, options.extraTokens ?? [], print);
  // What the database still knows: every index handed out on any network (the sequence is shared,
  // and a create that failed after taking one leaves a gap), and the highest domain.
  const [dbDeposits] = await db.select({ top: max(paymentSessions.depositIndex) }).from(paymentSessions);
  const [sequence] = rowsOf<{ last: string | number; called: boolean }>(
    await db.execute(sql`select last_value as last, is_called as called from deposit_index_seq`),
  );
  const handedOut = sequence?.called ? Number(sequence.last) : -1;
  const [dbDomains] = await db.select({ top: max(domains.id) }).from(domains);
  const depositScan = await scanWallets(network.name, tokens, {
    derive: (i) => ({ kind: "deposit", index: i, address: keys.depositAddress(i) }),
    from: options.fromIndex ?? 0,
    to: options.toIndex,
    knownUpTo: Math.max(dbDeposits?.top ?? -1, handedOut),
    gap: options.gap ?? DEFAULT_DEPOSIT_GAP,
  });
  const withdrawalScan = await scanWallets(network.name, tokens, {
    derive: (i) => ({ kind: "withdrawal", index: i, address: keys.withdrawalAddress(i) }),
    from: 0,
    knownUpTo: dbDomains?.top ?? 0,
    gap: WITHDRAWAL_GAP,
  });
  const derived = [...depositScan.wallets, ...withdrawalScan.wallets];
  if (derived.some((w) => w.address === to))
    throw new AppError("VALIDATION_ERROR", "--to is an address of the gateway itself: send the funds outside it");

  const stranded = [...depositScan.stranded, ...withdrawalScan.stranded];
  const unreadable = [...depositScan.unreadable, ...withdrawalScan.unreadable];
  const report: RecoverReport = {
    network: network.name,
    scanned: { deposits: depositScan.range, withdrawals: withdrawalScan.range },
    stranded,
    unreadable,
    moved: [],
    skipped: [],
  };
  print(
    `${network.name}: scanned deposit addresses ${depositScan.range[0]}…${depositScan.range[1]} and withdrawal wallets ${withdrawalScan.range[0]}…${withdrawalScan.range[1]} for ${tokens.map((t) => t.symbol).join(", ") || "no tokens"}`,
  );
  if (options.toIndex === undefined) {
    print(
      `  (the scan stopped after ${options.gap ?? DEFAULT_DEPOSIT_GAP} deposit addresses in a row that never held anything; if more were handed out, run again with --from-index ${depositScan.range[1] + 1} --to-index <n>)`,
    );
  }
  for (const u of unreadable)
    print(
      `  COULD NOT READ the ${u.token.symbol} balance of ${u.wallet.kind} ${u.wallet.address} (its balanceOf failed); check it by hand`,
    );
  for (const s of stranded) print(`  ${describe(s)}`);
  for (const [symbol, total] of totals(stranded)) print(`  total ${total} ${symbol}`);
  if (stranded.length === 0) print("  nothing to move");
  const bnbWallets = [...depositScan.wallets, ...withdrawalScan.wallets].map((w) => ({ role: w.kind, index: w.index, address: w.address }));
  const withBnb = async () => {
    if (!options.includeBnb) return report;
    print(`${network.name}: BNB on derived addresses`);
    report.bnb = await recoverBnb(db, network.name, [...bnbWallets, ...serviceBnbWallets()], to, {
      dryRun: options.dryRun ?? false,
      print,
    });
    return report;
  };
  if (options.dryRun || stranded.length === 0) {
    if (options.dryRun && stranded.length > 0) print(`  dry run: would move ${stranded.length} balance(s) to ${to}; nothing was sent`);
    return withBnb();
  }

  // The gas tank's recorded transactions first: one an earlier run recorded and never sent would
  // hold every top-up behind it.
  await settleLedgerInFlight(db, network.name, keyRingFor(getConfig().masterMnemonic).gasTankAddress()).catch((error: unknown) =>
    print(
      `  the gas tank has a recorded transaction not mined yet (${error instanceof Error ? error.message : String(error)}); top-ups may wait behind it`,
    ),
  );
  const byWallet = new Map<Address, StrandedBalance[]>();
  for (const s of stranded) byWallet.set(s.wallet.address, [...(byWallet.get(s.wallet.address) ?? []), s]);
  const queue = [...byWallet.values()];
  await Promise.all(
    Array.from({ length: Math.min(SWEEPING_AT_ONCE, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        for (const outcome of await sweepWallet(db, network.name, next, to)) {
          if ("txHash" in outcome) {
            report.moved.push(outcome);
            print(`  moved ${describe(outcome)} in ${outcome.txHash}`);
          } else {
            report.skipped.push(outcome);
            print(`  NOT moved ${describe(outcome)}: ${outcome.reason}`);
          }
        }
      }
    }),
  );
  print(
    `  moved ${report.moved.length} of ${stranded.length} balance(s) to ${to}${report.skipped.length ? `; ${report.skipped.length} not moved (see above)` : ""}`,
  );
  return withBnb();
}

/** Every token the gateway ever accepted on the network (disallowed ones too: paid before), plus `extra`. */
async function tokensToFind(db: Db, network: string, extra: string[], print: (line: string) => void): Promise<TokenRef[]> {
  const catalogue = await db
    .select({ contract: tokenCatalogue.contractAddress, symbol: tokenCatalogue.symbol, decimals: tokenCatalogue.decimals })
    .from(tokenCatalogue)
    .where(eq(tokenCatalogue.network, network));
  const found: TokenRef[] = catalogue.map((t) => ({ contract: getAddress(t.contract), symbol: t.symbol, decimals: t.decimals }));
  const client = publicClientFor(network);
  for (const raw of extra) {
    if (!isAddress(raw, { strict: false })) throw new AppError("VALIDATION_ERROR", `--token ${raw} is not an address`);
    const contract = getAddress(raw);
    if (found.some((t) => t.contract === contract)) continue;
    const [symbol, decimals] = await Promise.all([
      client.readContract({ address: contract, abi: erc20Abi, functionName: "symbol" }),
      client.readContract({ address: contract, abi: erc20Abi, functionName: "decimals" }),
    ]).catch(() => {
      throw new AppError("VALIDATION_ERROR", `--token ${contract} does not answer symbol() and decimals() on ${network}`);
    });
    found.push({ contract, symbol: String(symbol).slice(0, 32), decimals: Number(decimals) });
  }
  // A catalogue entry with no contract behind it on this chain (a test chain, say) holds nothing.
  const deployed = await Promise.all(found.map(async (t) => Boolean(await client.getCode({ address: t.contract }))));
  for (const [i, t] of found.entries()) if (!deployed[i]) print(`  (${t.symbol} ${t.contract} has no contract on ${network}: skipped)`);
  return found.filter((_, i) => deployed[i]);
}

interface ScanPlan {
  derive: (index: number) => WalletRef;
  from: number;
  to?: number;
  /** The ledger's highest index, if the database still knows it: always scanned. */
  knownUpTo: number;
  gap: number;
}

/**
 * Balances of derived wallets, window by window. With an explicit end, exactly [from, to]; else
 * until `gap` wallets in a row after the last one that ever held something (BNB dust stays on a
 * swept deposit address, so "held something" also finds used and emptied ones).
 */
async function scanWallets(network: string, tokens: TokenRef[], plan: ScanPlan) {
  const wallets: WalletRef[] = [];
  const stranded: StrandedBalance[] = [];
  const unreadable: { wallet: WalletRef; token: TokenRef }[] = [];
  let lastUsed = Math.max(plan.knownUpTo, plan.from - 1);
  let start = plan.from;
  const window = plan.to !== undefined ? Math.max(1, Math.min(plan.gap, plan.to - plan.from + 1)) : plan.gap;
  for (;;) {
    const end = plan.to !== undefined ? Math.min(plan.to, start + window - 1) : start + window - 1;
    const batch = Array.from({ length: end - start + 1 }, (_, i) => plan.derive(start + i));
    wallets.push(...batch);
    const holdings = await readHoldings(
      network,
      batch.map((w) => w.address),
      tokens.map((t) => t.contract),
    );
    const byOwner = new Map(batch.map((w) => [w.address, w]));
    for (const h of holdings) {
      if (h.unreadable && h.token !== null)
        unreadable.push({ wallet: byOwner.get(h.owner)!, token: tokens.find((t) => t.contract === h.token)! });
      if (h.balance === 0n) continue;
      const wallet = byOwner.get(h.owner)!;
      lastUsed = Math.max(lastUsed, wallet.index);
      if (h.token !== null) stranded.push({ wallet, token: tokens.find((t) => t.contract === h.token)!, balance: h.balance });
    }
    if (plan.to !== undefined ? end >= plan.to : end >= lastUsed + plan.gap)
      return { wallets, stranded, unreadable, range: [plan.from, end] as [number, number] };
    start = end + 1;
  }
}

type SweepOutcome = (StrandedBalance & { txHash: Hex }) | (StrandedBalance & { reason: string });

/** Moves the wallet's balances to `to`: gas first (recorded, from the tank), then one transfer per token. */
async function sweepWallet(db: Db, network: string, balances: StrandedBalance[], to: Address): Promise<SweepOutcome[]> {
  const wallet = balances[0]!.wallet;
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

  const gasPrice = await client.getGasPrice();
  try {
    await ensureGasBalance(db, network, wallet.address, plans.reduce((sum, p) => sum + p.gas, 0n) * gasPrice);
  } catch (error) {
    return [...outcomes, ...plans.map((p) => ({ ...p.balance, reason: error instanceof Error ? error.message : String(error) }))];
  }
  const keys = keyRingFor(getConfig().masterMnemonic);
  const signer = keys.signer(wallet.kind === "deposit" ? "deposit" : "withdrawal", wallet.index);
  const chain = chainOf(networkConfig(network)!);
  const chainCount = await client.getTransactionCount({ address: wallet.address, blockTag: "pending" });
  for (const { balance, gas } of plans) {
    // A ledger row like every transaction the service signs (with an empty database too: the nonce comes from the chain then).
    const row = await db.transaction(async (tx) => {
      const nonce = await allocateNonce(tx, network, wallet.address, chainCount);
      const raw = await signer.signTransaction({
        chain,
        chainId: chain.id,
        type: "legacy",
        to: balance.token.contract,
        data: transferData(to, balance.balance),
        gas,
        gasPrice,
        nonce,
      });
      return recordTransaction(tx, {
        network,
        walletRole: wallet.kind,
        walletIndex: wallet.index,
        wallet: wallet.address,
        kind: "recovery",
        raw,
      });
    });
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
    else if (settled.kind !== "recovery" || settled.status !== "mined")
      outcomes.push({
        ...balance,
        reason: `the transfer ${settled.txHash} ${settled.status === "reverted" ? "reverted" : "was replaced"}`,
      });
    else outcomes.push({ ...balance, txHash: settled.txHash as Hex });
  }
  return outcomes;
}

function describe(s: StrandedBalance): string {
  const where = s.wallet.kind === "deposit" ? `deposit address #${s.wallet.index}` : `withdrawal wallet of domain ${s.wallet.index}`;
  return `${where} ${s.wallet.address}: ${formatUnits(s.balance, s.token.decimals)} ${s.token.symbol} (${s.token.contract})`;
}

function totals(stranded: StrandedBalance[]): Map<string, string> {
  const sums = new Map<string, { sum: bigint; decimals: number }>();
  for (const s of stranded) {
    const key = `${s.token.symbol} (${s.token.contract})`;
    const entry = sums.get(key) ?? { sum: 0n, decimals: s.token.decimals };
    entry.sum += s.balance;
    sums.set(key, entry);
  }
  return new Map([...sums].map(([key, { sum, decimals }]) => [key, formatUnits(sum, decimals)]));
}
