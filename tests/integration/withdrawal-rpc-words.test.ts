import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { type Address, parseEther } from "viem";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { asOwner, type Principal } from "@/lib/accounts/members/principal";
import { AppError } from "@/lib/base/errors";
import { users, withdrawals } from "@/lib/db/schema";
import { sendWithdrawalFromDashboard } from "@/lib/domain/withdrawals/send";
import { availableToWithdraw } from "@/lib/domain/withdrawals/user-withdrawals";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { actionRefusal } from "@/lib/web/dashboard/shared/action-refusal";
import { CHAIN_FAILURE_WORDS } from "@/lib/web/dashboard/shared/refusal-words";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { type ProxyOptions, type RpcProxy, startRpcProxy } from "../helpers/rpc-proxy";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

/**
 * No page shows an RPC error's text: the withdrawal page's send, over a node that is down or that
 * answers a token's balanceOf with no data (its contract is not on that chain), answers with the
 * dashboard's own words and the refusal's stable reason; its balance hint reads as unknown.
 */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const RECIPIENT = "0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097" as Address;
const ENV = { NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" };

let merchant: Merchant;
let owner: Principal;
let proxy: RpcProxy | null = null;

/** What viem and nodes write: none of it may reach a page. */
const NODE_TEXT = [/HTTP request failed/i, /balanceOf/, /returned no data/i, /contract function/i, /viem/i, /RPC/, /https?:\/\//, /0x/];

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, ...ENV });
  const placeholder = await deployTestToken(chain().url, { symbol: "TMP" });
  merchant = await setUpMerchant({ contractAddress: placeholder, network: "bsc" });
  const wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
  const token = await deployTestToken(chain().url, { symbol: "WDR", mintTo: [wallet] });
  const { allowCatalogueToken } = await import("@/lib/domain/tokens/catalogue");
  await allowCatalogueToken(db(), "bsc", token);
  const { POST } = await import("@/app/api/user/tokens/route");
  const { call } = await import("../helpers/http");
  merchant.tokenId = (
    await call(POST, { method: "POST", headers: merchant.auth, body: { contractAddress: token, network: "bsc" } })
  ).body.data.tokenId;
  await chain().client.setBalance({ address: wallet, value: parseEther("1") });
  const [user] = await db().select().from(users).where(eq(users.id, merchant.userId));
  if (!user) throw new Error("the merchant's user is missing");
  owner = asOwner(user);
});

afterEach(async () => {
  useConfig({ BSC_RPC_URL: chain().url, ...ENV });
  await proxy?.close();
  proxy = null;
});

describe("a failing RPC on the withdrawal page", () => {
  it.each<[string, ProxyOptions, RegExp]>([
    ["the node is down", { down: true }, /HTTP request failed/],
    ["the token's balanceOf returns no data", { emptyCalls: true }, /The contract function "balanceOf" returned no data/],
  ])("%s: the send answers in the page's words with a stable reason, none of the node's text", async (_, options, nodeSaid) => {
    proxy = await startRpcProxy(chain().url, options);
    useConfig({ BSC_RPC_URL: proxy.url, ...ENV });
    const input = { domainId: merchant.domainId, tokenId: merchant.tokenId, toAddress: RECIPIENT, amount: "1" };

    const error = await sendWithdrawalFromDashboard(db(), owner, input as never, randomUUID()).then(
      () => {
        throw new Error("expected a refusal");
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    // lib's message is for API clients and logs: it quotes the node (which is what a page must not).
    expect((error as AppError).message).toMatch(nodeSaid);

    const shown = actionRefusal(error);
    expect(shown).toMatchObject({ ok: false, code: "BLOCKCHAIN_ERROR", reason: "rpc-failed", error: CHAIN_FAILURE_WORDS["rpc-failed"] });
    expect(shown.error).toContain("nothing was sent");
    for (const text of NODE_TEXT) expect(shown.error).not.toMatch(text);
    expect(shown.error).not.toContain(proxy.url);
    expect(await db().select().from(withdrawals)).toEqual([]);

    // The form's balance hint: unknown (its own words), never an error page or the node's text.
    const balance = await availableToWithdraw(db(), merchant.userId, merchant.domainId, merchant.tokenId);
    expect(balance).toMatchObject({ balance: null, available: null, symbol: "WDR" });
  });

  it("a chain failure without a reason of its own never shows lib's message; one with a reason keeps its words", () => {
    const leaked = new AppError("BLOCKCHAIN_ERROR", 'could not read: The contract function "balanceOf" returned no data ("0x").');
    expect(actionRefusal(leaked).error).toBe(CHAIN_FAILURE_WORDS["rpc-failed"]);
    const short = new AppError(
      "BLOCKCHAIN_ERROR",
      "not enough tokens in the withdrawal wallet",
      undefined,
      undefined,
      "wallet-short-of-tokens",
    );
    expect(actionRefusal(short)).toMatchObject({ error: "not enough tokens in the withdrawal wallet", reason: "wallet-short-of-tokens" });
  });
});
