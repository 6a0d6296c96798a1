/**
 * Recovery from the mnemonic alone (docs/design.md §16): derive the deposit addresses and withdrawal
 * wallets, find every balance of the tokens the gateway accepts on them, and sweep each to one
 * address, the gas tank paying the gas. It needs no records: what is left to move is read from the
 * chain each time, so a second run moves nothing and an interrupted one picks up where it stopped
 * (a transaction still in flight from the earlier run is waited for, never sent again). Each
 * transfer it signs is a ledger row (kind "recovery") before it is sent, as every transaction is.
 *
 * This file is the command's flow; finding what is stranded is `recover-scan.ts`, moving it
 * `recover-sweep.ts`, the BNB (--include-bnb) `recover-bnb.ts`, waiting out what is in flight
 * `recover-in-flight.ts`.
 */
import { max, sql } from "drizzle-orm";
import { type Address, formatUnits, getAddress, type Hex, isAddress } from "viem";
import { AppError } from "../../base/errors";
import type { Db } from "../../db";
import { rowsOf } from "../../db/rows";
import { domains, paymentSessions } from "../../db/schema";
import { networkConfig } from "../../engine/chain/networks";
import { serviceAddresses } from "../../engine/chain/wallet-addresses";
import { recoverBnb, serviceBnbWallets } from "./recover-bnb";
import { settleLedgerInFlight } from "./recover-in-flight";
import { type StrandedBalance, scanWallets, type TokenRef, tokensToFind, type WalletRef } from "./recover-scan";
import { sweepWallet } from "./recover-sweep";

export type { StrandedBalance, TokenRef, WalletRef } from "./recover-scan";

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

/**
 * Scans both kinds of wallet, prints what is stranded and, unless a dry run, sweeps it wallet by
 * wallet (SWEEPING_AT_ONCE at a time) to `options.to`; the BNB after the tokens, when asked.
 */
export async function recoverFunds(db: Db, options: RecoverOptions): Promise<RecoverReport> {
  const print = options.print ?? (() => {});
  const network = networkConfig(options.network);
  if (!network) throw new AppError("VALIDATION_ERROR", `network ${options.network} is not configured`);
  if (!isAddress(options.to, { strict: false })) throw new AppError("VALIDATION_ERROR", "--to must be an address (0x + 40 hex digits)");
  const to = getAddress(options.to);
  const keys = serviceAddresses();
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
    derive: (i) => ({ kind: "deposit", index: i, address: keys.deposit(i) }),
    from: options.fromIndex ?? 0,
    to: options.toIndex,
    knownUpTo: Math.max(dbDeposits?.top ?? -1, handedOut),
    gap: options.gap ?? DEFAULT_DEPOSIT_GAP,
  });
  const withdrawalScan = await scanWallets(network.name, tokens, {
    derive: (i) => ({ kind: "withdrawal", index: i, address: keys.withdrawal(i) }),
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
  await settleLedgerInFlight(db, network.name, serviceAddresses().gasTank()).catch((error: unknown) =>
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
