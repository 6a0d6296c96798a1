/**
 * Several instances on one PostgreSQL (docs/design.md §20): three `next start` processes of the production
 * build on one database and one anvil, as a load balancer sees them. One leads the jobs; any serves
 * the API and the pages. The leader's lock session terminated under a living process: it stops
 * leading, one other leads within 10 s, never two at once. Killed with SIGKILL mid-stream, the
 * leader is replaced within 10 s and every payment — those made while nobody led too — completes
 * and is forwarded exactly once, every withdrawal sent once. Each test waits for what it needs (a
 * leader, two living instances) itself. PostgreSQL only: PGlite is one process by design.
 */
import { eq, sql } from "drizzle-orm";
import { type Address, erc20Abi, parseEther, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTHENTICATED_KEY_TTL_MS } from "@/lib/accounts/api-keys/authenticate-api-key";
import { setDatabase } from "@/lib/db";
import type { DatabaseHandle } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { chainTransactions, forwards, paymentSessions } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { type AnvilNode, startAnvil } from "@/lib/engine/dev/anvil";
import { LEADER_LOCK_ID } from "@/lib/ops/jobs/embedded-runner";
import { type Merchant, newApiKey, setUpMerchant } from "../helpers/accounts";
import { chainClient, deployTestToken } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { createTestDatabase } from "../helpers/database";
import { payTo } from "../helpers/engine";
import { ensureBuild, type Instance, leads, startInstance } from "../helpers/instances";

const POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
const SECRET = "integration-test-secret-0123456789";
const MERCHANT_WALLET = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc" as Address;
const RECIPIENT = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;
const FAILOVER_MS = 10_000;
let handle: DatabaseHandle & { url?: string };
let anvil: AnvilNode;
let instances: Instance[] = [];
let merchant: Merchant;
let token: Address;

const client = () => chainClient(anvil.url);
async function api<T = { success: boolean; data: Record<string, unknown> }>(
  instance: Instance,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${instance.url}${path}`, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json", "x-api-key": merchant.apiKey, ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: (await res.json()) as T };
}
const createOn = async (instance: Instance, amount: string) =>
  (
    await api(instance, "/api/v1/payment/create", {
      method: "POST",
      body: { tokenId: merchant.tokenId, amount, merchantWallet: MERCHANT_WALLET },
    })
  ).body.data as { sessionId: string; depositAddress: Address };
const statusOn = async (instance: Instance, sessionId: string) =>
  (await api(instance, `/api/v1/payment/${sessionId}/status`)).body.data as { status: string };
const living = () => instances.filter((i) => i.process.exitCode === null && i.process.signalCode === null);
async function leaderNow(): Promise<Instance | null> {
  for (const instance of living()) if (await leads(instance)) return instance;
  return null;
}
/** The one instance that leads, once exactly one says so. */
async function oneLeader(): Promise<Instance> {
  await expect.poll(async () => (await Promise.all(living().map(leads))).filter(Boolean).length, { timeout: 20_000 }).toBe(1);
  const leader = await leaderNow();
  if (!leader) throw new Error("no leader");
  return leader;
}
/** The session holding the leader lock, and the process it says it belongs to (application_name). */
async function lockHolder(): Promise<{ pid: number; name: string } | null> {
  const [row] = rowsOf<{ pid: number; name: string }>(
    await handle.db.execute(sql`
      select l.pid, a.application_name as name from pg_locks l join pg_stat_activity a on a.pid = l.pid
      where l.locktype = 'advisory' and l.granted and l.objsubid = 1
        and ((l.classid::bigint << 32) | l.objid::bigint) = ${LEADER_LOCK_ID}::bigint`),
  );
  return row ?? null;
}
/** How many living instances say they lead, every 100 ms for `ms`. */
async function sampleLeaders(ms: number): Promise<number[]> {
  const counts: number[] = [];
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    counts.push((await Promise.all(living().map(leads))).filter(Boolean).length);
  }
  return counts;
}

beforeAll(async () => {
  if (!POSTGRES) return;
  handle = await createTestDatabase();
  setDatabase(handle);
  anvil = await startAnvil({ chainId: 56 });
  useConfig({ BSC_RPC_URL: anvil.url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "1" });
  token = await deployTestToken(anvil.url, { symbol: "INS" });
  merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
  await client().setBalance({ address: keyRingFor(TEST_MNEMONIC).gasTankAddress(), value: parseEther("10") });
  await client().setBalance({ address: keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId), value: parseEther("1") });
  await payTo(anvil.url, token, keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId), parseUnits("100", 18));
  await ensureBuild();
  const env = {
    DATABASE_URL: handle.url ?? "",
    BSC_RPC_URL: anvil.url,
    BSC_WS_URL: anvil.url.replace(/^http/, "ws"),
    MASTER_MNEMONIC: TEST_MNEMONIC,
    NEXTAUTH_SECRET: SECRET,
    CONFIRMATIONS: "1",
    SWEEP_BATCH_WAIT_MS: "0",
    // Checkout pages re-read on their own once a minute: only NOTIFY explains a page updated sooner.
    CHECKOUT_REFRESH_MS: "60000",
    REGISTER_RATE_LIMIT_PER_HOUR: "1000",
    LOGIN_RATE_LIMIT_PER_MINUTE: "1000",
  };
  instances = await Promise.all(["A", "B", "C"].map((name) => startInstance(name, env)));
}, 300_000);
afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await anvil?.stop();
  await handle?.close();
});

describe.skipIf(!POSTGRES)("three instances on one PostgreSQL", () => {
  it("lets exactly one of them lead the jobs, on a lock session of its own process", async () => {
    const leader = await oneLeader();
    expect((await lockHolder())?.name).toMatch(new RegExp(`^bsc-pay leader ${leader.process.pid}( |$)`));
  });

  it("never hands out one deposit index twice, whichever instance creates the session", async () => {
    const created = await Promise.all(instances.flatMap((instance) => Array.from({ length: 20 }, () => createOn(instance, "1"))));
    expect(new Set(created.map((c) => c.depositAddress)).size).toBe(created.length);
    const rows = await handle.db.select({ index: paymentSessions.depositIndex }).from(paymentSessions);
    expect(new Set(rows.map((r) => r.index)).size).toBe(rows.length);
  });

  it("shows a checkout page served by one instance the payment another instance's scanner recorded, through NOTIFY", async () => {
    const leader = await oneLeader();
    const other = living().find((i) => i !== leader);
    if (!other) throw new Error("no other instance");
    const session = await createOn(leader, "2");
    const res = await fetch(`${other.url}/api/checkout/${session.sessionId}/events`);
    const reader = res.body?.getReader();
    if (!reader) throw new Error("no event stream");
    let text = "";
    const completed = (async () => {
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return Number.POSITIVE_INFINITY;
        text += decoder.decode(value);
        if (/"status":"completed"/.test(text)) return Date.now();
      }
    })();
    await expect.poll(() => /"status":"pending"/.test(text), { timeout: 5_000 }).toBe(true); // the page's feed listens
    await new Promise((r) => setTimeout(r, 300));
    await payTo(anvil.url, token, session.depositAddress, parseUnits("2", 18));
    const paidAt = Date.now();
    const timeout = new Promise<number>((resolve) => setTimeout(() => resolve(Number.POSITIVE_INFINITY), 15_000));
    // The page's own re-read comes a minute after it opened (CHECKOUT_REFRESH_MS): only the
    // scanner's NOTIFY, reaching the other instance, explains an update within seconds.
    expect((await Promise.race([completed, timeout])) - paidAt).toBeLessThan(5_000);
    await reader.cancel();
  });

  it("refuses on another instance an API key revoked on one, for every request from AUTHENTICATED_KEY_TTL_MS after the revocation", async () => {
    const [a, b] = living();
    if (!a || !b) throw new Error("two instances needed");
    const key = await newApiKey(merchant.auth, "revoked across instances");
    const asKey = { "x-api-key": key.key };
    expect((await api(b, "/api/v1/payment/history", { headers: asKey })).status).toBe(200); // B remembers it now
    const revoked = await api(a, `/api/user/api-keys/${key.id}`, { method: "DELETE", headers: merchant.auth });
    expect(revoked.status).toBe(200);
    const revokedAt = Date.now(); // the revocation committed before A answered
    await new Promise((r) => setTimeout(r, Math.max(0, revokedAt + AUTHENTICATED_KEY_TTL_MS - Date.now())));
    // However loaded the machine, a request sent from this moment on is refused: no margin needed.
    expect((await api(b, "/api/v1/payment/history", { headers: asKey })).status).toBe(401);
  });

  it("stops a leader whose lock session is terminated while its process lives; one other leads within 10 s, never two at once", async () => {
    const leader = await oneLeader();
    const before = await lockHolder();
    if (!before) throw new Error("nobody holds the lock");
    const sampling = sampleLeaders(4_000);
    await handle.db.execute(sql`select pg_terminate_backend(${before.pid})`);
    const terminatedAt = Date.now();
    await expect.poll(async () => (await lockHolder())?.pid ?? before.pid, { timeout: FAILOVER_MS, interval: 100 }).not.toBe(before.pid);
    expect(Date.now() - terminatedAt).toBeLessThanOrEqual(FAILOVER_MS);
    const counts = await sampling;
    expect(counts.filter((n) => n > 1)).toEqual([]);
    expect(counts.at(-1)).toBe(1);
    expect(leader.process.exitCode).toBeNull(); // it lived on, and gave the lead up
    const holder = await lockHolder();
    const holding = living().find((i) => holder?.name.startsWith(`bsc-pay leader ${i.process.pid} `));
    expect(holding && (await leads(holding))).toBe(true);
  });

  it("survives kill -9 of the leader mid-stream: another leads within 10 s, each payment completes and is forwarded once, each withdrawal sent once", async () => {
    const sessions = await Promise.all(living().flatMap((instance) => [createOn(instance, "3"), createOn(instance, "4")]));
    const withdrawal = async (instance: Instance, key: string) =>
      api(instance, "/api/v1/withdrawal/send", {
        method: "POST",
        headers: { "idempotency-key": key },
        body: { domainId: merchant.domainId, tokenId: merchant.tokenId, amount: "1", toAddress: RECIPIENT },
      });
    // Whatever is still being forwarded (another test's payment) lands first, so the merchant's balance moves by these payments only.
    await expect
      .poll(async () => (await handle.db.select().from(forwards)).every((f) => f.status === "completed"), { timeout: 30_000 })
      .toBe(true);
    const merchantBefore = await client().readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [MERCHANT_WALLET],
    });
    const recipientBefore = await client().readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [RECIPIENT] });

    const half = Math.floor(sessions.length / 2);
    for (const s of sessions.slice(0, half)) await payTo(anvil.url, token, s.depositAddress, parseUnits(amountOf(sessions, s), 18));
    expect((await withdrawal(living()[0] as Instance, "before-the-kill")).status).toBe(201);
    const leader = await oneLeader();
    await leader.kill();
    const killedAt = Date.now();
    // Created while nobody leads (the survivors' next tick has not come yet): paid and forwarded like the rest.
    sessions.push(...(await Promise.all(living().flatMap((instance) => [createOn(instance, "3"), createOn(instance, "4")]))));
    for (const s of sessions.slice(half)) await payTo(anvil.url, token, s.depositAddress, parseUnits(amountOf(sessions, s), 18));
    for (const instance of living()) expect((await withdrawal(instance, `after-the-kill-${instance.name}`)).status).toBe(201);

    await expect.poll(leaderNow, { timeout: FAILOVER_MS, interval: 100 }).not.toBeNull();
    expect(Date.now() - killedAt).toBeLessThanOrEqual(FAILOVER_MS);

    const survivor = living()[0] as Instance;
    for (const s of sessions)
      await expect.poll(async () => (await statusOn(survivor, s.sessionId)).status, { timeout: 30_000 }).toBe("completed");
    const expectedIn = sessions.reduce((sum, s) => sum + parseUnits(amountOf(sessions, s), 18), 0n);
    await expect
      .poll(() => client().readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [MERCHANT_WALLET] }), {
        timeout: 60_000,
        interval: 500,
      })
      .toBe(merchantBefore + expectedIn);
    for (const s of sessions) {
      expect(await client().readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [s.depositAddress] })).toBe(0n);
      // One forward per payment, completed (its batch may be confirmed a moment after the tokens moved).
      await expect
        .poll(async () => (await handle.db.select().from(forwards).where(eq(forwards.sessionId, s.sessionId))).map((f) => f.status), {
          timeout: 15_000,
        })
        .toEqual(["completed"]);
    }
    const sent = 1 + living().length;
    await expect
      .poll(() => client().readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [RECIPIENT] }), {
        timeout: 30_000,
        interval: 500,
      })
      .toBe(recipientBefore + parseUnits(String(sent), 18));
    const withdrawalRows = await handle.db.select().from(chainTransactions).where(eq(chainTransactions.kind, "withdrawal"));
    expect(withdrawalRows.filter((r) => r.replacesId === null)).toHaveLength(sent);
  }, 180_000);
});

/** Sessions alternate 3 and 4 per instance. */
function amountOf(sessions: { sessionId: string }[], session: { sessionId: string }): string {
  return sessions.indexOf(session) % 2 === 0 ? "3" : "4";
}
