/**
 * The balance poller's cost and the nodes it meets: a poll of N open BNB
 * addresses is one header and one eth_call per 1,000 of them whatever payers send them (a payer
 * adds no address to read), and a node that does not run creation code in eth_call is read
 * through Multicall3's getEthBalance, with the same result.
 */

import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { type Address, type Hex, keccak256, parseEther, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as registerToken } from "@/app/api/user/tokens/route";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { chainCursors, deposits, paymentSessions } from "@/lib/db/schema";
import { nativeWatch } from "@/lib/domain/payments/native-watch";
import { recordTransfers } from "@/lib/domain/payments/record-transfers";
import multicall3 from "@/lib/engine/chain/contracts/multicall3.json";
import { forgetMulticall, MULTICALL3_ADDRESS } from "@/lib/engine/chain/multicall";
import { NATIVE_TOKEN } from "@/lib/engine/chain/native";
import { NATIVE_POLL_EVERY_BLOCKS, pollNativeBalances } from "@/lib/engine/scanner/native-balance-poll";
import { scanRoundStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";
import { deployInternalPayer } from "../helpers/internal-payer";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;

let merchant: Merchant;
let bnbId = 0;
let payer: Awaited<ReturnType<typeof deployInternalPayer>>;

const configure = (extra: Record<string, string> = {}) =>
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1", ...extra });

async function createSession(body: Record<string, unknown>) {
  const res = await call(create, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey },
    body: { merchantWallet: MERCHANT_WALLET, ...body },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data as { sessionId: string; depositAddress: Address };
}
const statusOf = async (sessionId: string) =>
  (await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId } })).body.data;
const nativeDepositsOf = (sessionId: string) =>
  db()
    .select()
    .from(deposits)
    .where(and(eq(deposits.sessionId, sessionId), eq(deposits.tokenContract, NATIVE_TOKEN)));
async function scanAndPoll(): Promise<void> {
  await chain().client.mine({ blocks: NATIVE_POLL_EVERY_BLOCKS });
  const round = await scanRoundStep(db(), 20, { networks: ["bsc"] });
  if (round.failed.length > 0) throw new Error(round.failed[0]!.error);
}
async function pollNow() {
  const [cursor] = await db().select().from(chainCursors).where(eq(chainCursors.network, "bsc"));
  return pollNativeBalances(db(), "bsc", { atBlock: cursor!.lastScannedBlock, port: nativeWatch, record: recordTransfers, everyBlocks: 0 });
}

beforeAll(async () => {
  await chain().client.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall3.deployedBytecode as Hex });
  configure();
  forgetMulticall("bsc");
  const usdt = await deployTestToken(chain().url, { symbol: "USDT", decimals: 18 });
  merchant = await setUpMerchant({ contractAddress: usdt, network: "bsc" });
  const res = await call(registerToken, {
    method: "POST",
    headers: merchant.auth,
    body: { contractAddress: NATIVE_TOKEN, network: "bsc" },
  });
  bnbId = res.body.data.tokenId;
  payer = await deployInternalPayer(chain().url);
  await scanAndPoll();
});

beforeEach(() => {
  configure();
});

describe("bounded cost", () => {
  it("reads 2,500 open addresses with one header and three eth_calls, whatever payers send them", async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => {
      const address = privateKeyToAccount(keccak256(toHex(`bounded-${i}`))).address;
      return {
        id: randomUUID(),
        userId: merchant.userId,
        apiKeyId: merchant.apiKeyId,
        tokenId: bnbId,
        network: "bsc",
        chainId: 56,
        depositIndex: 5_000_000 + i,
        depositAddress: address,
        depositTopic: address.slice(2).toLowerCase().padStart(64, "0"),
        amount: parseEther("1"),
        forwardTo: MERCHANT_WALLET,
        expiresAt: new Date(Date.now() + 3_600_000),
      };
    });
    for (let i = 0; i < rows.length; i += 500)
      await db()
        .insert(paymentSessions)
        .values(rows.slice(i, i + 500));
    await scanAndPoll();
    const quiet = await pollNow();
    expect(quiet.read).toBeGreaterThanOrEqual(2500);
    expect(quiet.rpcCalls).toBe(1 + Math.ceil(quiet.read / 1000));

    // A payer (or an attacker) sends dust to 40 of them from a contract: recorded, at no extra call.
    await payer.payMany(
      rows.slice(0, 40).map((r) => r.depositAddress),
      rows.slice(0, 40).map(() => 1n),
    );
    await chain().client.mine({ blocks: 1 });
    await scanRoundStep(db(), 20, { networks: ["bsc"] });
    const busy = await pollNow();
    expect(busy.recorded).toBe(40);
    expect(busy.rpcCalls).toBe(1 + Math.ceil(busy.read / 1000));
  });
});

describe("a node that does not run creation code in eth_call", () => {
  let proxy: { url: string; refused: number; close: () => Promise<void> };
  beforeEach(async () => {
    proxy = await creationRefusingProxy(chain().url);
    configure({ BSC_RPC_URL: proxy.url });
    forgetMulticall("bsc");
    return async () => {
      configure();
      forgetMulticall("bsc");
      await proxy.close();
    };
  });

  it("is read through Multicall3's getEthBalance from the first refusal on, with the same result", async () => {
    const session = await createSession({ tokenId: bnbId, amount: "0.07" });
    await scanAndPoll();
    await payer.pay(session.depositAddress, parseEther("0.07"));
    await scanAndPoll();
    await scanAndPoll();
    expect(proxy.refused).toBe(1);
    expect((await nativeDepositsOf(session.sessionId)).map((d) => d.amount)).toEqual([parseEther("0.07")]);
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed" });
  });
});

/** A JSON-RPC proxy that refuses eth_call without a recipient (-32602), as some providers do. */
async function creationRefusingProxy(target: string) {
  const state = { url: "", refused: 0, close: async () => {} };
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const request = JSON.parse(body) as { id: number; method: string; params: [{ to?: string }] };
    if (request.method === "eth_call" && !request.params[0]?.to) {
      state.refused++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: request.id, error: { code: -32602, message: "invalid argument 0: missing 'to'" } }));
      return;
    }
    const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
    res.writeHead(upstream.status, { "content-type": "application/json" });
    res.end(await upstream.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
