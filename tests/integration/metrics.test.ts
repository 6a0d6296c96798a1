import parsePrometheusTextFormat, { type MetricFamily } from "parse-prometheus-text-format";
import { type Address, parseUnits } from "viem";
import { describe, expect, it } from "vitest";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { forwards } from "@/lib/db/schema";
import { scanNetworkStep } from "@/lib/ops/jobs/steps";
import { metricsAccess } from "@/lib/web/http/metrics-access";
import { setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { SWEEP_MODE, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine } from "../helpers/engine";
import { call, fromClient } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const TOKEN = "metrics-token-0123456789abcdef";
const env = (extra: Record<string, string> = {}) =>
  useConfig({
    BSC_RPC_URL: chain().url,
    NEXTAUTH_SECRET: "integration-test-secret-0123456789",
    CONFIRMATIONS: "2",
    METRICS_TOKEN: TOKEN,
    ...extra,
  });

async function scrape(headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) {
  const res = await metricsRoute(new (await import("next/server")).NextRequest("http://localhost/api/metrics", { headers }));
  return { status: res.status, text: await res.text(), contentType: res.headers.get("content-type") };
}
const family = (families: MetricFamily[], name: string) => {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`no ${name} in the scrape`);
  return found;
};
const metricValue = (families: MetricFamily[], name: string, labels: Record<string, string>) =>
  Number(family(families, name).metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value);

describe("/api/metrics", () => {
  it("carries the engine's series in the Prometheus text format after a payment", async () => {
    env();
    const token = await deployTestToken(chain().url, { symbol: "MET" });
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    await fundGasTank(chain().url);
    const created = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount: "2", merchantWallet: "0x976EA74026E726554dB657fA54763abd0C3a0aa9" },
    });
    await call(create, { method: "POST", headers: { "x-api-key": merchant.apiKey }, body: { tokenId: merchant.tokenId, amount: "5" } });
    await chain().client.waitForTransactionReceipt({
      hash: await payTo(chain().url, token, created.body.data.depositAddress as Address, parseUnits("2", 18)),
    });
    await chain().client.mine({ blocks: 1 });
    await runEngine(db(), chain().url);

    const { status, text, contentType } = await scrape();
    expect(status).toBe(200);
    expect(contentType).toContain("text/plain");
    const families = parsePrometheusTextFormat(text);
    const head = await chain().client.getBlockNumber({ cacheTime: 0 });
    expect(metricValue(families, "bscpay_chain_head_block", { network: "bsc" })).toBe(Number(head));
    expect(metricValue(families, "bscpay_chain_cursor_block", { network: "bsc" })).toBe(Number(head) - 1);
    expect(metricValue(families, "bscpay_chain_lag_blocks", { network: "bsc" })).toBe(1);
    expect(metricValue(families, "bscpay_rpc_up", { network: "bsc" })).toBe(1);
    expect(metricValue(families, "bscpay_gas_tank_balance_bnb", { network: "bsc" })).toBeGreaterThan(9);
    expect(metricValue(families, "bscpay_gas_tank_low", { network: "bsc" })).toBe(0);
    expect(metricValue(families, "bscpay_sessions", { status: "completed" })).toBe(1);
    expect(metricValue(families, "bscpay_sessions", { status: "pending" })).toBe(1);
    expect(metricValue(families, "bscpay_forwards", { network: "bsc", status: "completed" })).toBe(1);
    expect(metricValue(families, "bscpay_forwards", { network: "bsc", status: "held" })).toBe(0);
    if (SWEEP_MODE === "batched") {
      expect(metricValue(families, "bscpay_sweep_batches", { network: "bsc", status: "mined" })).toBe(1);
      expect(metricValue(families, "bscpay_sweep_batch_entries", { network: "bsc", status: "mined" })).toBe(1);
    }
    expect(metricValue(families, "bscpay_withdrawals", { status: "submitted" })).toBe(0);
    expect(metricValue(families, "bscpay_webhook_deliveries", { status: "failed" })).toBe(0);
    expect(metricValue(families, "bscpay_quarantined_logs", { network: "bsc" })).toBe(0);
    expect(metricValue(families, "bscpay_rpc_requests_total", { network: "bsc", method: "eth_getLogs", outcome: "ok" })).toBeGreaterThan(0);
    // classic: top-up + sweep; batched: the two contract deployments + the batch
    expect(
      metricValue(families, "bscpay_rpc_requests_total", { network: "bsc", method: "eth_sendRawTransaction", outcome: "ok" }),
    ).toBeGreaterThanOrEqual(2);
    // This parser keeps a histogram's buckets but not its labels, _sum or _count: read those lines as text.
    expect(family(families, "bscpay_scan_duration_seconds").type).toBe("HISTOGRAM");
    expect(family(families, "bscpay_detection_latency_seconds").type).toBe("HISTOGRAM");
    expect(Number(/^bscpay_scan_duration_seconds_count\{network="bsc"\} (\d+)$/m.exec(text)?.[1])).toBeGreaterThan(0);
    expect(Number(/^bscpay_detection_latency_seconds_count\{network="bsc"\} (\d+)$/m.exec(text)?.[1])).toBe(1);
    expect(Number(/^bscpay_detection_latency_seconds_sum\{network="bsc"\} ([\d.]+)$/m.exec(text)?.[1])).toBeLessThan(30);
    expect(family(families, "bscpay_scan_errors_total").type).toBe("COUNTER");
    expect(family(families, "bscpay_webhook_attempts_total").type).toBe("COUNTER");
  });

  it("counts held forwards and failed RPC calls by kind", async () => {
    await db().update(forwards).set({ status: "held" });
    const families = parsePrometheusTextFormat((await scrape()).text);
    expect(metricValue(families, "bscpay_forwards", { network: "bsc", status: "held" })).toBe(1);
    expect(family(families, "bscpay_forwards").metrics.some((m) => m.labels?.status === "completed")).toBe(false); // no stale series
    await db().update(forwards).set({ status: "completed" });

    // An RPC that does not answer: the scan fails, and both the failure and its kind are counted.
    env({ BSC_RPC_URL: "http://127.0.0.1:9" });
    await expect(scanNetworkStep(db(), "bsc")).rejects.toThrow();
    const down = parsePrometheusTextFormat((await scrape()).text);
    expect(metricValue(down, "bscpay_scan_errors_total", { network: "bsc" })).toBeGreaterThanOrEqual(1);
    expect(
      metricValue(down, "bscpay_rpc_requests_total", { network: "bsc", method: "eth_blockNumber", outcome: "transient" }),
    ).toBeGreaterThanOrEqual(1);
    expect(metricValue(down, "bscpay_rpc_up", { network: "bsc" })).toBe(0);
    env();
  });

  it("with METRICS_TOKEN, serves its holders only, from anywhere", async () => {
    env();
    expect((await scrape(fromClient("127.0.0.1"))).status).toBe(401); // loopback is not enough once a token is set
    expect((await scrape({ authorization: "Bearer wrong-token-0123456789" })).status).toBe(401);
    const allowed = await scrape({ authorization: `Bearer ${TOKEN}`, ...fromClient("203.0.113.9") });
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain("bscpay_chain_head_block");
    expect(metricsAccess(new Headers({ authorization: `bearer ${TOKEN}` }), TOKEN)).toBe("allowed");
  });

  it("without a token, serves loopback clients only (the socket's peer, or the proxy's entry with TRUSTED_PROXY_HOPS) and refuses remote ones", async () => {
    env({ METRICS_TOKEN: "" });
    expect((await scrape(fromClient("127.0.0.1"))).status).toBe(200);
    expect((await scrape(fromClient("::1"))).status).toBe(200);
    expect((await scrape(fromClient("::ffff:127.0.0.1"))).status).toBe(200);
    const remote = await scrape(fromClient("203.0.113.9"));
    expect(remote.status).toBe(401);
    expect(remote.text).toContain("loopback clients only");
    // A direct client's own X-Forwarded-For is not believed without TRUSTED_PROXY_HOPS.
    expect((await scrape({ ...fromClient("203.0.113.9"), "x-forwarded-for": "127.0.0.1" })).status).toBe(401);
    env({ METRICS_TOKEN: "", TRUSTED_PROXY_HOPS: "1" });
    expect((await scrape({ ...fromClient("127.0.0.1"), "x-forwarded-for": "127.0.0.1, 203.0.113.9" })).status).toBe(401);
    expect((await scrape({ ...fromClient("127.0.0.1"), "x-forwarded-for": "203.0.113.9, 127.0.0.1" })).status).toBe(200);
    env();
  });
});
