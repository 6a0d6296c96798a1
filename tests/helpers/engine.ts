import { spawn } from "node:child_process";

import { inArray, sql } from "drizzle-orm";
import { type Address, createWalletClient, erc20Abi, type Hex, http, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Db } from "@/lib/db";
import { forwards, OPEN_FORWARD_STATUSES } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { networkConfig } from "@/lib/engine/chain/networks";
import { ANVIL_DEFAULT_KEYS } from "@/lib/engine/dev/demo-token";
import { isForwardDue } from "@/lib/engine/forwarding/forward-schedule";
import type { ForwardOutcome } from "@/lib/engine/forwarding/forwarder";
import { SCHEDULE } from "@/lib/ops/jobs/schedule";
import { dueForwardsStep, expireDueStep, forwardStep, planForwardsStep, scanRoundStep } from "@/lib/ops/jobs/steps";
import { chainAt, chainClient, type TestChain } from "./chain";
import { TEST_MNEMONIC } from "./config";

/** Sends `amount` base units of `token` from one of anvil's funded accounts; returns the tx hash. */
export async function payTo(
  url: string,
  token: Address,
  to: Address,
  amount: bigint,
  payerKey: Hex = ANVIL_DEFAULT_KEYS[1]!,
): Promise<Hex> {
  const wallet = createWalletClient({ account: privateKeyToAccount(payerKey), chain: await chainAt(url), transport: http(url) });
  return wallet.writeContract({ address: token, abi: erc20Abi, functionName: "transfer", args: [to, amount] });
}

export async function tokenBalance(url: string, token: Address, owner: Address): Promise<bigint> {
  return chainClient(url).readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] });
}

export async function fundGasTank(url: string, amount = parseEther("10")): Promise<Address> {
  const tank = keyRingFor(TEST_MNEMONIC).gasTankAddress();
  await chainClient(url).setBalance({ address: tank, value: amount });
  return tank;
}

/** What the forward queue did while a helper drove it, on its simulated clock. */
export interface ForwardLog {
  /** Time the queue was moved on by (skipToNextDue), in total. */
  simulatedMs: number;
  steps: { forwardId: number; outcome: ForwardOutcome; atMs: number }[];
}

export const newForwardLog = (): ForwardLog => ({ simulatedMs: 0, steps: [] });

/** The embedded runner's work loop picks due forwards once a second, a page of them at a time (the schedule's forward job). */
export const TICK_MS = SCHEDULE.forward.embedded.everyMs();
const FORWARD_PAGE = SCHEDULE.forward.embedded.pageSize;
/** Scan rounds (a page of ranges per network each) before runEngine gives up reaching the head. */
const SCAN_ROUNDS_TO_HEAD = 3;

/**
 * The forward queue's clock, simulated: when no open forward is due, time passes, in the embedded
 * runner's whole ticks, until the first one is — every open forward's nextAttemptAt moves earlier
 * by that much, so each keeps its wait relative to the others (a failure's backoff is never
 * skipped over, a 1 s pause costs 1 s). Returns the milliseconds skipped.
 */
export async function skipToNextDue(db: Db): Promise<number> {
  const open = await db
    .select({ nextAttemptAt: forwards.nextAttemptAt })
    .from(forwards)
    .where(inArray(forwards.status, [...OPEN_FORWARD_STATUSES]));
  const now = new Date();
  if (open.length === 0 || open.some((f) => isForwardDue(f, now))) return 0;
  const skip = Math.ceil((Math.min(...open.map((f) => f.nextAttemptAt.getTime())) - now.getTime()) / TICK_MS) * TICK_MS;
  await db
    .update(forwards)
    .set({ nextAttemptAt: sql`${forwards.nextAttemptAt} - ${skip} * interval '1 millisecond'` })
    .where(inArray(forwards.status, [...OPEN_FORWARD_STATUSES]));
  return skip;
}

/**
 * One round of the forward queue as the embedded runner's work loop takes it: time passes until
 * something is due, then a page of due forwards takes a step each (one after another, where the
 * runner takes a few at once). Returns how many did.
 */
export async function forwardRound(db: Db, log: ForwardLog = newForwardLog()): Promise<number> {
  log.simulatedMs += await skipToNextDue(db);
  const due = await dueForwardsStep(db, FORWARD_PAGE);
  for (const { forwardId } of due)
    log.steps.push({ forwardId, outcome: (await forwardStep(db, forwardId)).outcome, atMs: log.simulatedMs });
  return due.length;
}

/**
 * Drives the engine's job steps by hand until nothing is left: scan `network` to the confirmed
 * head (rounds of the scan job; its error is thrown), expire, and forward until every forward is
 * finished (mining a block between rounds when the chain does not automine). Between rounds the
 * forward queue's time is simulated (skipToNextDue): no real waiting, and no retry before its
 * recorded backoff is over. Bounded: throws if work remains after `rounds`. Returns what the
 * forward queue did.
 */
export async function runEngine(
  db: Db,
  url: string,
  options: { network?: string; rounds?: number; mine?: boolean } = {},
): Promise<ForwardLog> {
  const network = options.network ?? "bsc";
  const client = chainClient(url);
  const log = newForwardLog();
  for (let round = 0; round < (options.rounds ?? 30); round++) {
    await scanToHead(db, network);
    await expireDueStep(db);
    await planForwardsStep(db);
    const open = (await db.select({ status: forwards.status }).from(forwards)).filter(
      (f) => f.status !== "completed" && f.status !== "held",
    );
    if (open.length === 0) return log;
    await forwardRound(db, log);
    // A ledger row is final only at the confirmation depth: on an automining chain nothing else adds the blocks on top.
    if (options.mine || needsBlocksOnTop(network)) await client.mine({ blocks: 1 });
  }
  const stuck = await db.select().from(forwards);
  throw new Error(
    `engine did not settle: ${JSON.stringify(stuck.filter((f) => f.status !== "completed").map((f) => [f.id, f.status, f.lastError]))}`,
  );
}

function needsBlocksOnTop(network: string): boolean {
  const finality = networkConfig(network)?.finality;
  return finality !== undefined && (finality.kind === "finalized" || finality.blocks > 1);
}

/** Rounds of the scan job over one network until it has nothing left behind the confirmed head. */
async function scanToHead(db: Db, network: string): Promise<void> {
  for (let round = 0; round < SCAN_ROUNDS_TO_HEAD; round++) {
    const { behind, failed } = await scanRoundStep(db, SCHEDULE.scan.embedded.pageSize, { networks: [network] });
    if (failed[0]) throw new Error(`scan ${network}: ${failed[0].error}`);
    if (behind.length === 0) return;
  }
}

export async function forwardsOf(db: Db, depositId?: number) {
  const rows = await db.select().from(forwards);
  return depositId === undefined ? rows : rows.filter((f) => f.depositId === depositId);
}

/**
 * A crash right after a broadcast: runs tests/helpers/forward-process.ts (a forwarding worker) in
 * its own process with `env` while blocks are not mined, and kills it (SIGKILL) as soon as the gas
 * tank's pending nonce passes `sentBefore`. Then mines the block with what it sent and turns
 * automine back on.
 */
export async function killForwarderAfterItSends(
  chain: TestChain,
  { tank, sentBefore, env, what }: { tank: Address; sentBefore: number; env: Record<string, string>; what: string },
): Promise<void> {
  await chain.client.setAutomine(false);
  const worker = spawn(process.execPath, ["--import", "tsx", "tests/helpers/forward-process.ts"], {
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, NODE_ENV: "test", LOG_LEVEL: "silent", ...env },
    stdio: "ignore",
  });
  const exited = new Promise((resolve) => worker.once("exit", resolve));
  try {
    const deadline = Date.now() + 30_000;
    while ((await chain.client.getTransactionCount({ address: tank, blockTag: "pending" })) === sentBefore) {
      if (Date.now() > deadline) throw new Error(`the worker never sent ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    worker.kill("SIGKILL");
    await exited;
  }
  await chain.client.mine({ blocks: 1 });
  await chain.client.setAutomine(true);
}
