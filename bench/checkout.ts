import { eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { type Address, createTestClient, http, parseEther, parseUnits, publicActions } from "viem";
import { GET as events } from "@/app/api/checkout/[sessionId]/events/route";
import { createApiKey } from "@/lib/accounts/api-keys/create-api-key";
import { createUser } from "@/lib/accounts/users/create-user";
import { parseConfig, setConfig } from "@/lib/base/config";
import { getDb, setDatabase } from "@/lib/db";
import { openPostgres } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { paymentSessions, tokenCatalogue, tokens } from "@/lib/db/schema";
import { addDomain } from "@/lib/domain/merchant-domains/add-domain";
import { createPaymentSession } from "@/lib/domain/payments/create-session";
import { activatePlan } from "@/lib/domain/plans/activate-plan";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { startAnvil } from "@/lib/engine/dev/anvil";
import { ANVIL_DEFAULT_KEYS } from "@/lib/engine/dev/demo-token";
import { LOCAL_CHAIN_PACE } from "@/lib/engine/dev/local-chain";
import { startEmbeddedRunner } from "@/lib/ops/jobs/embedded-runner";
import { checkoutHub } from "@/lib/web/checkout/checkout-hub";
import { createBenchDatabase } from "./database";
import { payFrom } from "./pay";
import { BENCH_MNEMONIC } from "./server";
import { deployBenchToken } from "./token";

/**
 * `npm run bench:checkout` (PostgreSQL + anvil, the real engine): 1, 200 and 1000 open checkout
 * event streams on one session each round; prints the change feed's database queries per second
 * while they idle (goal: the same for every count) and how long after the status became
 * `completed` the last stream heard it (goal: ≤ 3 s).
 */
const COUNTS = (process.env.BENCH_STREAMS ?? "1,200,1000").split(",").map(Number);

async function openStream(sessionId: string, onCompleted: () => void) {
  const res = await events(new NextRequest(`http://localhost/api/checkout/${sessionId}/events`), {
    params: Promise.resolve({ sessionId }),
  });
  void (async () => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
      if (text.includes('"status":"completed"')) return onCompleted();
    }
  })();
}

async function main() {
  const database = await createBenchDatabase("checkout");
  const anvil = await startAnvil({ chainId: 56, ...LOCAL_CHAIN_PACE });
  const handle = openPostgres(database.url, { max: 10 });
  const runner = { stop: async () => {} };
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
    const token = await deployBenchToken(anvil.url);
    const user = await createUser(db, { email: "checkout@example.com", password: "benchmark password" });
    await activatePlan(db, user.id, "enterprise");
    await addDomain(db, user.id, "https://shop.example.com");
    await db.insert(tokenCatalogue).values({ network: "bsc", contractAddress: token, symbol: "BUSD", name: "Bench USD", decimals: 18 });
    const [tokenRow] = await db
      .insert(tokens)
      .values({ userId: user.id, network: "bsc", contractAddress: token, symbol: "BUSD", name: "Bench USD", decimals: 18 })
      .returning();
    const { record: key } = await createApiKey(db, user.id, "bench");
    await createTestClient({ mode: "anvil", transport: http(anvil.url) })
      .extend(publicActions)
      .setBalance({ address: keyRingFor(BENCH_MNEMONIC).gasTankAddress(), value: parseEther("100") });
    Object.assign(runner, startEmbeddedRunner(handle));
    const hub = checkoutHub(getDb);

    console.log("\nopen event streams | feed queries / s while idle | completed → last stream heard it");
    for (const count of COUNTS) {
      const session = await createPaymentSession(db, key, { tokenId: tokenRow!.id, amount: "1" }, null);
      let heard = 0;
      let lastHeardAt = 0;
      await Promise.all(
        Array.from({ length: count }, () =>
          openStream(session.sessionId, () => {
            heard += 1;
            lastHeardAt = Date.now();
          }),
        ),
      );
      await new Promise((r) => setTimeout(r, 1500));
      const before = hub.stats.queries;
      await new Promise((r) => setTimeout(r, 5000));
      const perSecond = (hub.stats.queries - before) / 5;

      let completedAt = 0;
      const watch = setInterval(async () => {
        const [row] = await db
          .select({ status: paymentSessions.status })
          .from(paymentSessions)
          .where(eq(paymentSessions.id, session.sessionId));
        if (row?.status === "completed" && !completedAt) completedAt = Date.now();
      }, 25);
      await payFrom(anvil.url, ANVIL_DEFAULT_KEYS[1]!, token, session.depositAddress as Address, parseUnits("1", 18));
      const deadline = Date.now() + 30_000;
      while (heard < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      clearInterval(watch);
      console.log(
        `${String(count).padStart(18)} | ${perSecond.toFixed(1).padStart(27)} | ${heard === count ? `${lastHeardAt - completedAt} ms (${heard}/${count} streams)` : `only ${heard}/${count} streams heard it`}`,
      );
    }
  } finally {
    await runner.stop();
    await handle.close();
    await anvil.stop();
    await database.drop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
