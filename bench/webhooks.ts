import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getAddress, parseUnits } from "viem";
import { createApiKey } from "@/lib/accounts/api-keys/create-api-key";
import { asOwner } from "@/lib/accounts/members/principal";
import { createUser } from "@/lib/accounts/users/create-user";
import { parseConfig, setConfig } from "@/lib/base/config";
import { setDatabase } from "@/lib/db";
import { openPostgres } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { tokens } from "@/lib/db/schema";
import { addDomain } from "@/lib/domain/merchant-domains/add-domain";
import { updateDomain } from "@/lib/domain/merchant-domains/manage-domains";
import { NotificationPump } from "@/lib/domain/notifications/pump";
import { createPaymentSession } from "@/lib/domain/payments/create-session";
import { recordTransfers } from "@/lib/domain/payments/record-transfers";
import { activatePlan } from "@/lib/domain/plans/activate-plan";
import { WEBHOOK_POLL_MS } from "@/lib/ops/jobs/embedded-runner";
import { createBenchDatabase } from "./database";
import { BENCH_MNEMONIC } from "./server";

/**
 * `npm run bench:webhooks` (PostgreSQL): 1,000 payments complete — recorded by the scanner's own
 * function, BLOCK_SIZE per transaction every BLOCK_MS, as blocks full of payments would be — while
 * the embedded runner's webhook sender (its pump, kicked after each block and every
 * WEBHOOK_POLL_MS) delivers to a receiver on a local port. Prints, per receiver speed, the latency
 * from the event's commit to the receiver having it (p50/p99) and deliveries per second.
 */
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 1000);
const BLOCK_SIZE = 50;
const BLOCK_MS = 50;
const RECEIVER_DELAYS_MS = (process.env.BENCH_RECEIVER_MS ?? "0,50").split(",").map(Number);
const CONTRACT = getAddress("0x55d398326f99059ff775485246999027b3197955");

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function startReceiver(delayMs: number, onEvent: (sessionId: string) => void) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { type: string; data: { sessionId: string } };
      if (event.type === "payment.completed") onEvent(event.data.sessionId);
      setTimeout(() => res.writeHead(200).end("ok"), delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function main() {
  const database = await createBenchDatabase("webhooks");
  const handle = openPostgres(database.url, { max: 10 });
  try {
    await migrate(handle.db);
    setDatabase(handle);
    // No chain is touched: the payments are recorded as the scanner would record them.
    setConfig(
      parseConfig({
        NODE_ENV: "production",
        BSC_RPC_URL: "http://127.0.0.1:9",
        MASTER_MNEMONIC: BENCH_MNEMONIC,
        NEXTAUTH_SECRET: "benchmark-secret-0123456789abcdef",
        WEBHOOK_ALLOW_PRIVATE: "true",
        LOG_LEVEL: "silent",
      }),
    );
    const db = handle.db;
    const user = await createUser(db, { email: "webhooks@example.com", password: "benchmark password" });
    await activatePlan(db, user.id, "enterprise");
    const domain = await addDomain(db, user.id, "https://shop.example.com");
    // USDT on bsc is in the catalogue from the start (seeded by migration).
    const [token] = await db
      .insert(tokens)
      .values({ userId: user.id, network: "bsc", contractAddress: CONTRACT, symbol: "USDT", name: "Tether USD", decimals: 18 })
      .returning();
    const { record: key } = await createApiKey(db, user.id, "bench");

    console.log(`\n${PAYMENTS} payments completing, ${BLOCK_SIZE} per block every ${BLOCK_MS} ms; one shop endpoint`);
    console.log("receiver answers after | delivered | committed → received p50 | p99 | deliveries / s");
    let block = 1_000_000n;
    for (const delayMs of RECEIVER_DELAYS_MS) {
      const committedAt = new Map<string, number>();
      const latencies: number[] = [];
      let firstCommit = 0;
      let lastReceived = 0;
      const receiver = await startReceiver(delayMs, (sessionId) => {
        lastReceived = Date.now();
        latencies.push(lastReceived - committedAt.get(sessionId)!);
      });
      await updateDomain(db, asOwner(user), domain.id, { webhookUrl: receiver.url });
      const sessions = [];
      for (let i = 0; i < PAYMENTS; i++) sessions.push(await createPaymentSession(db, key, { tokenId: token!.id, amount: "1" }, null));

      const pump = new NotificationPump(db);
      const poll = setInterval(() => void pump.pump().catch(() => {}), WEBHOOK_POLL_MS);
      firstCommit = Date.now();
      for (let start = 0; start < sessions.length; start += BLOCK_SIZE) {
        block += 1n;
        const batch = sessions.slice(start, start + BLOCK_SIZE);
        await db.transaction((tx) =>
          recordTransfers(
            tx,
            batch.map((s, i) => ({
              network: "bsc",
              txHash: `0x${block.toString(16).padStart(32, "0")}${i.toString(16).padStart(32, "0")}`,
              logIndex: i,
              blockNumber: block,
              blockHash: `0x${block.toString(16).padStart(64, "0")}`,
              blockTimestamp: new Date(),
              tokenContract: CONTRACT,
              fromAddress: "0x0000000000000000000000000000000000000001",
              toAddress: s.depositAddress,
              amount: parseUnits("1", 18),
              sessionId: s.sessionId,
            })),
          ),
        );
        const now = Date.now();
        for (const s of batch) committedAt.set(s.sessionId, now);
        void pump.pump().catch(() => {}); // as the runner does after a scan that recorded transfers
        await new Promise((r) => setTimeout(r, BLOCK_MS));
      }
      const deadline = Date.now() + 120_000;
      while (latencies.length < PAYMENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      clearInterval(poll);
      await pump.stop();
      await receiver.close();
      const sorted = [...latencies].sort((a, b) => a - b);
      const perSecond = latencies.length / ((lastReceived - firstCommit) / 1000);
      console.log(
        `${`${delayMs} ms`.padStart(22)} | ${`${latencies.length}/${PAYMENTS}`.padStart(9)} | ${`${percentile(sorted, 50)} ms`.padStart(25)} | ${`${percentile(sorted, 99)} ms`.padStart(7)} | ${perSecond.toFixed(0).padStart(14)}`,
      );
      if (latencies.length < PAYMENTS) process.exitCode = 1;
    }
  } finally {
    await handle.close();
    await database.drop();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
