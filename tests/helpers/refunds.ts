/**
 * A shop ready to refund on anvil, for the refund test files: a merchant whose domain wallet holds
 * the test token, a webhook endpoint, paid sessions on demand, and the refund and claim calls.
 */
import { eq, inArray } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { beforeAll, expect } from "vitest";
import { POST as claim } from "@/app/api/refund/[refundId]/claim/route";
import { GET as claimPage } from "@/app/api/refund/[refundId]/route";
import { PATCH as patchDomain } from "@/app/api/user/domains/[id]/route";
import { POST as refund } from "@/app/api/v1/payment/[sessionId]/refund/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import type { Db } from "@/lib/db";
import { paymentSessions, refunds, withdrawals } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { tendLedgerStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "./accounts";
import { deployTestToken, payer, type TestChain, useTestChain } from "./chain";
import { TEST_MNEMONIC, useConfig } from "./config";
import { useTestDatabase } from "./database";
import { fundGasTank, payTo, runEngine } from "./engine";
import { call } from "./http";

export const PAYER_NEW_ADDRESS = "0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097" as Address;
export const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;
export const units = (amount: string) => parseUnits(amount, 18);

export interface RefundShop {
  db: () => Db;
  chain: () => TestChain;
  merchant: () => Merchant;
  token: () => Address;
  /** The domain's withdrawal wallet: it pays the refunds. */
  wallet: () => Address;
}

let orders = 0;

/** Registers the database, the chain and the shop for the current test file. */
export function useRefundShop(options: { mintToWallet?: boolean } = {}): RefundShop {
  const db = useTestDatabase();
  const chain = useTestChain({ chainId: 56 });
  let merchant: Merchant | undefined;
  let token: Address | undefined;
  let wallet: Address | undefined;
  beforeAll(async () => {
    useConfig({
      BSC_RPC_URL: chain().url,
      NEXTAUTH_SECRET: "integration-test-secret-0123456789",
      CONFIRMATIONS: "1",
      WEBHOOK_ALLOW_PRIVATE: "true",
    });
    await fundGasTank(chain().url);
    // The merchant's wallet address follows from its domain id: a placeholder token first, then the real one minted to it.
    const placeholder = await deployTestToken(chain().url, { symbol: "TMP" });
    const m = await setUpMerchant({ contractAddress: placeholder, network: "bsc" });
    wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(m.domainId);
    token = await deployTestToken(chain().url, {
      symbol: "RFD",
      mintTo: options.mintToWallet === false ? [payer.address] : [wallet, payer.address],
    });
    const { POST: registerToken } = await import("@/app/api/user/tokens/route");
    const { allowCatalogueToken } = await import("@/lib/domain/tokens/catalogue");
    await allowCatalogueToken(db(), "bsc", token);
    m.tokenId = (
      await call(registerToken, { method: "POST", headers: m.auth, body: { contractAddress: token, network: "bsc" } })
    ).body.data.tokenId;
    await call(patchDomain, {
      method: "PATCH",
      headers: m.auth,
      params: { id: String(m.domainId) },
      body: { webhookUrl: "http://127.0.0.1:9/hooks" },
    });
    merchant = m;
  });
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} not set up yet`);
    return value;
  };
  return {
    db,
    chain,
    merchant: () => need(merchant, "merchant"),
    token: () => need(token, "token"),
    wallet: () => need(wallet, "wallet"),
  };
}

export const apiKey = (shop: RefundShop) => ({ "x-api-key": shop.merchant().apiKey });

/** A payment of `asked` paid with `paid`, scanned until the engine has nothing left to do. */
export async function paidSession(
  shop: RefundShop,
  asked: string,
  paid: string,
  /**
   * Another key's headers: the payment is that key's. Only the owner's keys may choose where a
   * payment's money goes (docs/design.md §26): another key's payment forwards to the domain's target.
   */
  headers?: Record<string, string>,
): Promise<{ sessionId: string; depositAddress: Address }> {
  const created = await call(create, {
    method: "POST",
    headers: headers ?? apiKey(shop),
    body: {
      tokenId: shop.merchant().tokenId,
      amount: asked,
      ...(headers ? {} : { merchantWallet: MERCHANT_WALLET }),
      orderId: `ORD-${++orders}`,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { sessionId, depositAddress } = created.body.data;
  const hash = await payTo(shop.chain().url, shop.token(), depositAddress, units(paid));
  await shop.chain().client.waitForTransactionReceipt({ hash });
  await runEngine(shop.db(), shop.chain().url);
  const [session] = await shop
    .db()
    .select({ status: paymentSessions.status })
    .from(paymentSessions)
    .where(eq(paymentSessions.id, sessionId));
  expect(session?.status).toBe("completed");
  return { sessionId, depositAddress };
}

export async function settleWithdrawals(shop: RefundShop): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await shop.chain().client.mine({ blocks: 1 });
    if ((await tendLedgerStep(shop.db())).pending === 0) return;
  }
  throw new Error("withdrawals did not settle");
}

export const refundReq = (shop: RefundShop, sessionId: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  call(refund, { method: "POST", headers: { ...apiKey(shop), ...headers }, params: { sessionId }, body });

/** The refund id and secret of a claim link (`…/refund/<id>?k=<secret>`), as the claim routes take them. */
export function claimLinkParts(link: string): { refundId: string; secret: string | null; query: string } {
  const url = new URL(link);
  const refundId = url.pathname.split("/").pop() ?? "";
  const secret = url.searchParams.get("k");
  return { refundId, secret, query: secret === null ? "" : `?k=${encodeURIComponent(secret)}` };
}

/** The payer's claim through the link's parts: POST /api/refund/<id>/claim?k=<secret>. */
export const claimReq = (link: string, address: string, headers: Record<string, string> = {}) => {
  const { refundId, query } = claimLinkParts(link);
  return call(claim, { method: "POST", path: `/api/refund/${refundId}/claim${query}`, params: { refundId }, body: { address }, headers });
};

/** What the claim page reads through the link: GET /api/refund/<id>?k=<secret>. */
export const claimPageReq = (link: string, headers: Record<string, string> = {}) => {
  const { refundId, query } = claimLinkParts(link);
  return call(claimPage, { path: `/api/refund/${refundId}${query}`, params: { refundId }, headers });
};

/** A session's refunds and the withdrawals that pay them. */
export async function refundsOfSession(db: Db, sessionId: string) {
  const rows = await db.select().from(refunds).where(eq(refunds.sessionId, sessionId));
  const ids = rows.map((r) => r.id);
  const paid = ids.length === 0 ? [] : await db.select().from(withdrawals).where(inArray(withdrawals.refundId, ids));
  return { refunds: rows, withdrawals: paid, sent: paid.reduce((sum, w) => sum + w.amount, 0n) };
}

export async function countRows(db: Db) {
  return {
    refunds: (await db.select({ id: refunds.id }).from(refunds)).length,
    withdrawals: (await db.select({ id: withdrawals.id }).from(withdrawals)).length,
  };
}
