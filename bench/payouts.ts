import { and, eq, inArray } from "drizzle-orm";
import { type Address, createTestClient, type Hex, http, parseEther, publicActions } from "viem";
import { createApiKey } from "@/lib/accounts/api-keys/create-api-key";
import { createUser } from "@/lib/accounts/users/create-user";
import { parseConfig, setConfig } from "@/lib/base/config";
import { type Db, setDatabase } from "@/lib/db";
import { openPostgres } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { type ChainTransactionKind, chainTransactions, payoutBatches, tokenCatalogue, tokens, withdrawals } from "@/lib/db/schema";
import { addDomain } from "@/lib/domain/merchant-domains/add-domain";
import { createPayouts } from "@/lib/domain/payouts/create-payouts";
import { activatePlan } from "@/lib/domain/plans/activate-plan";
import { sendWithdrawal } from "@/lib/domain/withdrawals/send";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { startAnvil } from "@/lib/engine/dev/anvil";
import { ANVIL_DEFAULT_KEYS } from "@/lib/engine/dev/demo-token";
import { tendLedgerStep } from "@/lib/ops/jobs/steps";
import { createBenchDatabase } from "./database";
import { payFrom } from "./pay";
import { BENCH_MNEMONIC } from "./server";
import { deployBenchToken } from "./token";

/**
 * `npm run bench:payouts`: paying 200 recipients (BENCH_RECIPIENTS) on anvil (automine, 30M-gas
 * blocks) through the real code, in-process on PostgreSQL: one payout batch (BatchPayer chunks)
 * against 200 single withdrawals. Prints total gas, gas per recipient, transactions and wall time
 * for each; the one-time BatchPayer deployment is printed on its own.
 */
const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 200);
const recipient = (run: number, i: number) => `0x${(run * 0x1000000 + 0xbe0000 + i).toString(16).padStart(40, "0")}` as Address;

async function main() {
  const database = await createBenchDatabase("payouts");
  const anvil = await startAnvil({ chainId: 56 });
  const handle = openPostgres(database.url, { max: 10 });
  try {
    await migrate(handle.db);
    setDatabase(handle);
    setConfig(
      parseConfig({
        NODE_ENV: "production",
        BSC_RPC_URL: anvil.url,
        MASTER_MNEMONIC: BENCH_MNEMONIC,
        NEXTAUTH_SECRET: "benchmark-secret-0123456789abcdef",
        CONFIRMATIONS: "1",
        LOG_LEVEL: "silent",
      }),
    );
    const db = handle.db;
    const chain = createTestClient({ mode: "anvil", transport: http(anvil.url) }).extend(publicActions);
    const keys = keyRingFor(BENCH_MNEMONIC);
    await chain.setBalance({ address: keys.gasTankAddress(), value: parseEther("1000") });
    const token = await deployBenchToken(anvil.url);
    const user = await createUser(db, { email: "payouts@example.com", password: "benchmark password" });
    await activatePlan(db, user.id, "enterprise");
    const domain = await addDomain(db, user.id, "https://shop.example.com");
    await db.insert(tokenCatalogue).values({ network: "bsc", contractAddress: token, symbol: "BUSD", name: "Bench USD", decimals: 18 });
    const [tokenRow] = await db
      .insert(tokens)
      .values({ userId: user.id, network: "bsc", contractAddress: token, symbol: "BUSD", name: "Bench USD", decimals: 18 })
      .returning();
    const { record: key } = await createApiKey(db, user.id, "payouts");
    const wallet = keys.withdrawalAddress(domain.id);
    await payFrom(anvil.url, ANVIL_DEFAULT_KEYS[0]!, token, wallet, parseEther("100000"));
    await chain.setBalance({ address: wallet, value: parseEther("10") });
    const base = { domainId: domain.id, tokenId: tokenRow!.id };

    // One batch.
    let started = performance.now();
    const { view } = await createPayouts(
      db,
      key,
      { ...base, items: Array.from({ length: RECIPIENTS }, (_, i) => ({ toAddress: recipient(1, i), amount: "1.5" })) },
      null,
    );
    await until(db, async () => {
      const [batch] = await db.select().from(payoutBatches).where(eq(payoutBatches.id, view.batchId));
      return batch?.status === "completed";
    });
    const batchMs = performance.now() - started;
    const deploy = await gasOf(db, chain, ["payout_deploy"]);
    const batch = await gasOf(db, chain, ["payout_approve", "payout"]);

    // The same recipients' worth as single withdrawals.
    started = performance.now();
    for (let i = 0; i < RECIPIENTS; i++) await sendWithdrawal(db, key, { ...base, toAddress: recipient(2, i), amount: "1.5" }, null);
    await until(db, async () => (await db.select().from(withdrawals).where(eq(withdrawals.status, "submitted"))).length === 0);
    const singleMs = performance.now() - started;
    const single = await gasOf(db, chain, ["withdrawal"]);

    console.log(`\nPaying ${RECIPIENTS} recipients of one BEP-20 from one withdrawal wallet (anvil, 30M-gas blocks, PostgreSQL)`);
    const line = (name: string, r: { gas: bigint; txs: number }, ms: number) =>
      console.log(
        `  ${name.padEnd(28)} total gas ${r.gas.toString().padStart(10)}  per recipient ${(r.gas / BigInt(RECIPIENTS)).toString().padStart(7)}  transactions ${String(r.txs).padStart(4)}  wall ${Math.round(ms)} ms`,
      );
    line("one payout batch", batch, batchMs);
    line(`${RECIPIENTS} single withdrawals`, single, singleMs);
    console.log(`  BatchPayer deployment (once per chain): ${deploy.gas} gas in ${deploy.txs} transaction`);
  } finally {
    await handle.close();
    await anvil.stop();
    await database.drop();
  }
}

async function until(db: Db, done: () => Promise<boolean>): Promise<void> {
  for (let round = 0; round < 200; round++) {
    if (await done()) return;
    await tendLedgerStep(db);
  }
  throw new Error("not settled after 200 rounds");
}

async function gasOf(
  db: Db,
  chain: { getTransactionReceipt: (a: { hash: Hex }) => Promise<{ gasUsed: bigint }> },
  kinds: ChainTransactionKind[],
): Promise<{ gas: bigint; txs: number }> {
  const rows = await db
    .select({ txHash: chainTransactions.txHash })
    .from(chainTransactions)
    .where(and(inArray(chainTransactions.kind, kinds), inArray(chainTransactions.status, ["mined", "reverted"])));
  let gas = 0n;
  for (const row of rows) gas += (await chain.getTransactionReceipt({ hash: row.txHash as Hex })).gasUsed;
  return { gas, txs: rows.length };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
