import { and, eq, inArray } from "drizzle-orm";
import { type Address, createTestClient, type Hex, http, parseEther, parseUnits, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createApiKey } from "@/lib/accounts/api-keys/create-api-key";
import { createUser } from "@/lib/accounts/users/create-user";
import { parseConfig, setConfig } from "@/lib/base/config";
import { type Db, setDatabase } from "@/lib/db";
import { openPostgres } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { forwards, sweepBatches, tokenCatalogue, tokens } from "@/lib/db/schema";
import { addDomain } from "@/lib/domain/merchant-domains/add-domain";
import { createPaymentSession } from "@/lib/domain/payments/create-session";
import { activatePlan } from "@/lib/domain/plans/activate-plan";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { startAnvil } from "@/lib/engine/dev/anvil";
import { ANVIL_DEFAULT_KEYS } from "@/lib/engine/dev/demo-token";
import { forgetBatchSupport } from "@/lib/engine/forwarding/batched/batch-support";
import { dueForwardsStep, forwardStep, planForwardsStep, scanNetworkStep } from "@/lib/ops/jobs/steps";
import { createBenchDatabase } from "./database";
import { payFrom } from "./pay";
import { BENCH_MNEMONIC } from "./server";
import { deployBenchToken } from "./token";

/**
 * What forwarding costs, through the real engine on anvil (automine, Prague): for classic sweeps
 * (gas top-up + sweep per deposit) and batched EIP-7702 sweeps, at batch sizes 1, 10, 50 and 100.
 * Batched figures come twice: a first sweep (each address signs its authorization: EIP-7702
 * charges 25,000 gas for delegating an empty account) and a later sweep of already delegated
 * addresses. Gas per deposit counts everything the gas tank pays for (top-ups, sweeps, batches);
 * the one-time deployment of the sweep contracts is printed on its own.
 */
export interface CostRow {
  mode: string;
  deposits: number;
  gasPerDeposit: bigint;
  transactionsPerDeposit: number;
  bnbLeftWei: bigint;
}

const SIZES = [1, 10, 50, 100];
const MERCHANT = privateKeyToAccount(ANVIL_DEFAULT_KEYS[2]!).address; // already holds the token

export async function measureForwardingCost(): Promise<{ rows: CostRow[]; deploymentGas: bigint }> {
  const database = await createBenchDatabase("forwarding");
  const anvil = await startAnvil({ chainId: 56 });
  const handle = openPostgres(database.url, { max: 10 });
  try {
    await migrate(handle.db);
    setDatabase(handle);
    const configure = (mode: "classic" | "batched", size: number) =>
      setConfig(
        parseConfig({
          NODE_ENV: "production",
          BSC_RPC_URL: anvil.url,
          MASTER_MNEMONIC: BENCH_MNEMONIC,
          NEXTAUTH_SECRET: "benchmark-secret-0123456789abcdef",
          CONFIRMATIONS: "0",
          LOG_LEVEL: "silent",
          SWEEP_MODE: mode,
          SWEEP_BATCH_SIZE: String(size),
          SWEEP_BATCH_WAIT_MS: "0",
        }),
      );
    configure("batched", 100);
    forgetBatchSupport();
    const db = handle.db;
    const chain = createTestClient({ mode: "anvil", transport: http(anvil.url) }).extend(publicActions);
    await chain.setBalance({ address: keyRingFor(BENCH_MNEMONIC).gasTankAddress(), value: parseEther("1000") });
    const token = await deployBenchToken(anvil.url);
    const user = await createUser(db, { email: "forwarding@example.com", password: "benchmark password" });
    await activatePlan(db, user.id, "enterprise");
    await addDomain(db, user.id, "https://shop.example.com");
    await db.insert(tokenCatalogue).values({ network: "bsc", contractAddress: token, symbol: "BUSD", name: "Bench USD", decimals: 18 });
    const [tokenRow] = await db
      .insert(tokens)
      .values({ userId: user.id, network: "bsc", contractAddress: token, symbol: "BUSD", name: "Bench USD", decimals: 18 })
      .returning();
    const { record: key } = await createApiKey(db, user.id, "forwarding");

    const newAddresses = async (n: number): Promise<Address[]> => {
      const addresses: Address[] = [];
      for (let i = 0; i < n; i++)
        addresses.push(
          (await createPaymentSession(db, key, { tokenId: tokenRow!.id, amount: "1", merchantWallet: MERCHANT }, null))
            .depositAddress as Address,
        );
      return addresses;
    };
    const round = async (mode: string, addresses: Address[]): Promise<CostRow> => {
      for (const [i, address] of addresses.entries())
        await payFrom(anvil.url, ANVIL_DEFAULT_KEYS[i % 2]!, token, address, parseUnits("1", 18));
      const ids = await forwardAll(db, addresses);
      const rows = await db.select().from(forwards).where(inArray(forwards.id, ids));
      let gas = 0n;
      let transactions = 0;
      const batchIds = [...new Set(rows.flatMap((f) => (f.batchId === null ? [] : [f.batchId])))];
      if (batchIds.length > 0) {
        const batches = await db.select().from(sweepBatches).where(inArray(sweepBatches.id, batchIds));
        gas += batches.reduce((sum, b) => sum + b.gasUsed!, 0n);
        transactions += batches.length;
      }
      for (const f of rows.filter((r) => r.batchId === null)) {
        for (const hash of [f.gasTxHash, f.sweepTxHash]) {
          if (!hash) continue;
          gas += (await chain.getTransactionReceipt({ hash: hash as Hex })).gasUsed;
          transactions += 1;
        }
      }
      let bnbLeft = 0n;
      for (const address of addresses) bnbLeft += await chain.getBalance({ address });
      return {
        mode,
        deposits: addresses.length,
        gasPerDeposit: gas / BigInt(addresses.length),
        transactionsPerDeposit: transactions / addresses.length,
        bnbLeftWei: bnbLeft,
      };
    };

    const rows: CostRow[] = [];
    for (const size of SIZES) {
      configure("classic", size);
      rows.push(await round("classic", await newAddresses(size)));
    }
    for (const size of SIZES) {
      configure("batched", size);
      const addresses = await newAddresses(size);
      rows.push(await round("batched, first sweep (with authorization)", addresses));
      rows.push(await round("batched, delegated addresses", addresses));
    }
    const deployments = await db
      .select()
      .from(sweepBatches)
      .where(inArray(sweepBatches.kind, ["deploy_sweeper", "deploy_delegate"]));
    return { rows, deploymentGas: deployments.reduce((sum, d) => sum + (d.gasUsed ?? 0n), 0n) };
  } finally {
    await handle.close();
    await anvil.stop();
    await database.drop();
  }
}

/** Scans, then advances every due forward until those of `addresses` are all completed; their ids. */
async function forwardAll(db: Db, addresses: Address[]): Promise<number[]> {
  for (let i = 0; i < 50; i++) if ((await scanNetworkStep(db, "bsc")).behind === 0) break;
  for (let attempt = 0; attempt < 200; attempt++) {
    await planForwardsStep(db);
    const mine = await db
      .select()
      .from(forwards)
      .where(and(eq(forwards.network, "bsc"), inArray(forwards.fromAddress, addresses)));
    const open = mine.filter((f) => f.status !== "completed");
    if (mine.length > 0 && open.length === 0) {
      // Only this round's sweeps: the addresses may have been swept before.
      const latest = new Map<string, number>();
      for (const f of mine) latest.set(f.fromAddress, Math.max(latest.get(f.fromAddress) ?? 0, f.id));
      return [...latest.values()];
    }
    if (open.some((f) => f.status === "held")) throw new Error(`a forward was held: ${open.find((f) => f.status === "held")!.heldReason}`);
    await db
      .update(forwards)
      .set({ nextAttemptAt: new Date(0) })
      .where(
        inArray(
          forwards.id,
          open.map((f) => f.id),
        ),
      );
    for (const { forwardId } of await dueForwardsStep(db, 500)) await forwardStep(db, forwardId);
  }
  throw new Error("forwarding did not finish");
}

export function printForwardingCost({ rows, deploymentGas }: { rows: CostRow[]; deploymentGas: bigint }): void {
  console.log(`\n(d) forwarding cost through the engine (anvil, Prague), per forwarded deposit`);
  console.log(
    `    ${"mode".padEnd(42)} ${"deposits".padStart(8)} ${"gas".padStart(8)} ${"tx".padStart(6)} ${"BNB left on addresses".padStart(22)}`,
  );
  for (const r of rows) {
    console.log(
      `    ${r.mode.padEnd(42)} ${String(r.deposits).padStart(8)} ${r.gasPerDeposit.toString().padStart(8)} ${r.transactionsPerDeposit.toFixed(2).padStart(6)} ${`${r.bnbLeftWei} wei`.padStart(22)}`,
    );
  }
  console.log(`    one-time deployment of BatchSweeper + DepositDelegate: ${deploymentGas} gas`);
  const at50 = rows.filter((r) => r.deposits === 50 && r.mode.startsWith("batched"));
  for (const r of at50)
    console.log(
      `    goal at 50 (${r.mode}): ≤ 25000 gas → ${r.gasPerDeposit} ${r.gasPerDeposit <= 25_000n ? "met" : "NOT met"}; ≤ 0.05 tx → ${r.transactionsPerDeposit.toFixed(2)}; no BNB left → ${r.bnbLeftWei === 0n ? "met" : "NOT met"}`,
    );
}

if (process.argv[1]?.endsWith("forwarding.ts")) {
  measureForwardingCost()
    .then(printForwardingCost)
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
