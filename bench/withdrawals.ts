import { createTestClient, http, parseEther, publicActions } from "viem";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { LOCAL_CHAIN_PACE } from "@/lib/engine/dev/local-chain";
import { benchMerchant } from "./merchant";
import { BENCH_MNEMONIC, startBenchServer } from "./server";
import { deployBenchToken } from "./token";

/**
 * `npm run bench:withdrawals`: 50 concurrent sends from one domain wallet against `next start`
 * (PostgreSQL, anvil with BSC's 0.45 s blocks, CONFIRMATIONS=1): submitted/s, time until every one is
 * completed, and how many failed (goal 0).
 */
const SENDS = Number(process.env.BENCH_SENDS ?? 50);

async function main() {
  const server = await startBenchServer({ CONFIRMATIONS: "1" }, LOCAL_CHAIN_PACE);
  try {
    const chain = createTestClient({ mode: "anvil", transport: http(server.anvil.url) }).extend(publicActions);
    const keys = keyRingFor(BENCH_MNEMONIC);
    await chain.setBalance({ address: keys.gasTankAddress(), value: parseEther("100") });
    const token = await deployBenchToken(server.anvil.url);
    const merchant = await benchMerchant(server.url, server.databaseUrl, token);
    const wallet = keys.withdrawalAddress(merchant.domainId);
    // Fund the domain wallet with tokens: a payer sends it some.
    const { payFrom } = await import("./pay");
    const { ANVIL_DEFAULT_KEYS } = await import("@/lib/engine/dev/demo-token");
    await payFrom(server.anvil.url, ANVIL_DEFAULT_KEYS[0]!, token, wallet, parseEther("1000"));

    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: SENDS }, (_, i) =>
        fetch(`${server.url}/api/v1/withdrawal/send`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": merchant.apiKey },
          body: JSON.stringify({
            domainId: merchant.domainId,
            tokenId: merchant.tokenId,
            toAddress: "0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097",
            amount: `1.${i}`,
          }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data?: { withdrawalId: string } } })),
      ),
    );
    const submittedMs = performance.now() - started;
    const ids = answers.filter((a) => a.status === 201).map((a) => a.body.data!.withdrawalId);
    const statuses = new Map<string, string>();
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      for (const id of ids) {
        if (statuses.get(id) === "completed" || statuses.get(id) === "failed") continue;
        const res = await fetch(`${server.url}/api/v1/withdrawal/${id}`, { headers: { "x-api-key": merchant.apiKey } });
        statuses.set(id, ((await res.json()) as { data: { status: string } }).data.status);
      }
      if ([...statuses.values()].filter((s) => s === "completed" || s === "failed").length === ids.length) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const doneMs = performance.now() - started;
    const completed = [...statuses.values()].filter((s) => s === "completed").length;
    const failed = SENDS - completed;
    console.log(
      `\n${SENDS} concurrent withdrawals from one wallet (next start, PostgreSQL, anvil ${LOCAL_CHAIN_PACE.blockTime} s blocks, CONFIRMATIONS=1)`,
    );
    console.log(
      `  accepted (201): ${ids.length}, in ${Math.round(submittedMs)} ms → ${(ids.length / (submittedMs / 1000)).toFixed(1)} submitted/s`,
    );
    console.log(`  all completed after ${Math.round(doneMs)} ms; completed ${completed}, failed or refused ${failed} (goal 0)`);
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
