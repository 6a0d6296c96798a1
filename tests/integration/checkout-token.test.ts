/**
 * The payer's choice of token on a fiat-priced checkout (docs/design.md §23): the session then
 * asks for that token at its locked quote, and every refusal changes nothing. Fiat sessions are made
 * here by giving a token session a price and quotes directly (the create API has its own tests).
 */
import { eq } from "drizzle-orm";
import { getAddress } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as payerCancel } from "@/app/api/checkout/[sessionId]/cancel/route";
import { GET as checkout } from "@/app/api/checkout/[sessionId]/route";
import { POST as chooseToken } from "@/app/api/checkout/[sessionId]/token/route";
import { POST as registerToken } from "@/app/api/user/tokens/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { CHECKOUT_CHANGES_PER_MINUTE } from "@/lib/accounts/abuse/limits";
import { setDatabase } from "@/lib/db";
import type { DatabaseHandle } from "@/lib/db/client";
import { paymentSessions, sessionQuotes } from "@/lib/db/schema";
import { chooseSessionToken } from "@/lib/domain/payments/choose-token";
import { SESSION_CHANGES_CHANNEL } from "@/lib/domain/payments/session-changes";
import { allowCatalogueToken } from "@/lib/domain/tokens/catalogue";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { createTestDatabase } from "../helpers/database";
import { call, fromClient } from "../helpers/http";

const chain = useTestChain({ chainId: 56 });
let handle: DatabaseHandle;
const db = () => handle.db;

let merchant: Merchant;
/** USDT (18 decimals, the merchant's first), USDC (6 decimals), DAI (registered, never quoted here). */
const ids = { usdt: 0, usdc: 0, dai: 0 };
const contracts = { usdt: "", usdc: "" };
const USDT_25 = 25n * 10n ** 18n;
const USDC_25 = 25_012_506n; // 25.00 USD at 0.9995
const DAI_25 = 25n * 10n ** 18n;

async function addToken(symbol: string, decimals: number): Promise<{ id: number; address: string }> {
  const address = await deployTestToken(chain().url, { symbol, decimals });
  await allowCatalogueToken(db(), "bsc", getAddress(address));
  const res = await call(registerToken, { method: "POST", headers: merchant.auth, body: { contractAddress: address, network: "bsc" } });
  if (res.status >= 300) throw new Error(JSON.stringify(res.body));
  return { id: res.body.data.tokenId as number, address };
}

async function tokenSession(): Promise<string> {
  const res = await call(create, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey },
    body: { tokenId: ids.usdt, amount: "25" },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data.sessionId as string;
}

/** A session priced 25.00 USD, offering USDT (first, so asked for now) then USDC (0.05 % off its peg), or only `offer`. */
async function fiatSession(offer: { tokenId: number; amount: bigint; rate: string; offPeg?: boolean }[] = defaultOffer()): Promise<string> {
  const sessionId = await tokenSession();
  // Non-null: every offer list here has a first entry.
  const first = offer[0]!;
  const [row] = await db()
    .update(paymentSessions)
    .set({ tokenId: first.tokenId, amount: first.amount, currency: "USD", fiatAmount: 2500n, rate: first.rate })
    .where(eq(paymentSessions.id, sessionId))
    .returning();
  // Non-null: the session was created just above.
  const { createdAt, expiresAt } = row!;
  await db()
    .insert(sessionQuotes)
    .values(
      offer.map((q, position) => ({
        sessionId,
        tokenId: q.tokenId,
        position,
        amount: q.amount,
        rate: q.rate,
        source: "chainlink:0x0000000000000000000000000000000000000001",
        offPeg: q.offPeg ?? false,
        quotedAt: createdAt,
        expiresAt,
      })),
    );
  return sessionId;
}

function defaultOffer() {
  return [
    { tokenId: ids.usdt, amount: USDT_25, rate: "1.00000000" },
    { tokenId: ids.usdc, amount: USDC_25, rate: "0.99950000", offPeg: true },
  ];
}

const sessionRow = async (id: string) => {
  const [row] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, id));
  if (!row) throw new Error(`no session ${id}`);
  return row;
};

const choose = (sessionId: string, body: unknown) => call(chooseToken, { method: "POST", params: { sessionId }, body });

/** Every announced change on the sessions channel (NOTIFY, at commit). */
const announced: string[] = [];
let unlisten: () => Promise<void>;

beforeAll(async () => {
  handle = await createTestDatabase();
  setDatabase(handle);
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
  contracts.usdt = await deployTestToken(chain().url, { symbol: "USDT" });
  merchant = await setUpMerchant({ contractAddress: contracts.usdt, network: "bsc" });
  ids.usdt = merchant.tokenId;
  const usdc = await addToken("USDC", 6);
  ids.usdc = usdc.id;
  contracts.usdc = usdc.address;
  ids.dai = (await addToken("DAI", 18)).id;
  unlisten = await handle.listen(SESSION_CHANGES_CHANNEL, (payload) => announced.push(...payload.split(",")));
});
afterAll(async () => {
  await unlisten?.();
  await handle?.close();
});

describe("GET /api/checkout/:sessionId of a fiat-priced session", () => {
  it("shows the price, that no token was chosen yet, and every quote in the order offered; the amount asked is the first's", async () => {
    const sessionId = await fiatSession();
    const { body } = await call(checkout, { params: { sessionId } });
    const row = await sessionRow(sessionId);
    expect(body.data).toMatchObject({ token: "USDT", amount: "25", amountUnits: USDT_25.toString(), decimals: 18 });
    expect(body.data.fiat).toEqual({
      currency: "USD",
      fiatAmount: "25.00",
      tokenChosen: false,
      // The gateway's default: the whole price (the page states no terms).
      underpayBps: 0,
      quotes: [
        {
          tokenId: ids.usdt,
          token: "USDT",
          tokenAddress: contracts.usdt,
          decimals: 18,
          amount: "25",
          amountUnits: USDT_25.toString(),
          rate: "1.00000000",
          offPeg: false,
          quoteExpiresAt: row.expiresAt.toISOString(),
        },
        {
          tokenId: ids.usdc,
          token: "USDC",
          tokenAddress: contracts.usdc,
          decimals: 6,
          amount: "25.012506",
          amountUnits: USDC_25.toString(),
          rate: "0.99950000",
          offPeg: true,
          quoteExpiresAt: row.expiresAt.toISOString(),
        },
      ],
    });
  });

  it("has no fiat part for a session priced in a token", async () => {
    const { body } = await call(checkout, { params: { sessionId: await tokenSession() } });
    expect(body.data.fiat).toBeNull();
  });
});

describe("POST /api/checkout/:sessionId/token (the payer's choice)", () => {
  let sessionId: string;
  beforeEach(async () => {
    sessionId = await fiatSession();
  });

  it("asks for the chosen token at its quote from now on: amount, rate, QR code and payment link, the window unchanged", async () => {
    const before = await sessionRow(sessionId);
    const initial = (await call(checkout, { params: { sessionId } })).body.data;
    const announcedBefore = announced.filter((id) => id === sessionId).length;

    const res = await choose(sessionId, { tokenId: ids.usdc });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body.data).toMatchObject({
      sessionId,
      status: "pending",
      token: "USDC",
      tokenAddress: contracts.usdc,
      decimals: 6,
      amount: "25.012506",
      amountUnits: USDC_25.toString(),
      remainingUnits: USDC_25.toString(),
      expiresAt: before.expiresAt.toISOString(),
      fiat: { currency: "USD", fiatAmount: "25.00", tokenChosen: true },
    });
    expect(res.body.data.paymentUri.toLowerCase()).toContain(contracts.usdc.toLowerCase());
    expect(res.body.data.paymentUri).toContain(`uint256=${USDC_25}`);
    expect(res.body.data.qrCode).not.toBe(initial.qrCode);
    expect(res.body.data.fiat.quotes).toEqual(initial.fiat.quotes); // the quotes are locked

    const after = await sessionRow(sessionId);
    expect(after).toMatchObject({ tokenId: ids.usdc, amount: USDC_25, rate: "0.99950000", status: "pending", receivedAmount: 0n });
    expect(after.tokenChosenAt).not.toBeNull();
    expect(after.expiresAt).toEqual(before.expiresAt); // choosing does not restart the quote window
    expect((await call(checkout, { params: { sessionId } })).body.data).toEqual(res.body.data);
    // Open pages are told at once (their feed reads on the announcement).
    await expect.poll(() => announced.filter((id) => id === sessionId).length, { timeout: 5_000 }).toBe(announcedBefore + 1);

    // And back: the payer may change their mind while nothing has arrived.
    const back = await choose(sessionId, { tokenId: ids.usdt });
    expect(back.body.data).toMatchObject({ token: "USDT", amount: "25", amountUnits: USDT_25.toString(), fiat: { tokenChosen: true } });
    expect(await sessionRow(sessionId)).toMatchObject({ tokenId: ids.usdt, amount: USDT_25, rate: "1.00000000" });
  });

  it("slows a client that changes checkouts too often: past 30 a minute (choices and cancels together) 429, and nothing changes", async () => {
    const client = fromClient("203.0.113.77");
    for (let i = 0; i < CHECKOUT_CHANGES_PER_MINUTE; i++) {
      const res = await call(chooseToken, {
        method: "POST",
        headers: client,
        params: { sessionId },
        body: { tokenId: i % 2 ? ids.usdt : ids.usdc },
      });
      expect(res.status).toBe(200);
    }
    const before = await sessionRow(sessionId);
    const refused = await call(chooseToken, { method: "POST", headers: client, params: { sessionId }, body: { tokenId: ids.usdc } });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const cancel = await call(payerCancel, { method: "POST", headers: client, params: { sessionId } });
    expect(cancel.status).toBe(429);
    expect(await sessionRow(sessionId)).toEqual(before);
    // Another client is not held back by it.
    expect((await choose(sessionId, { tokenId: ids.usdc })).status).toBe(200);
  });

  it("choosing the token already asked for is allowed and changes only when it was chosen", async () => {
    const res = await choose(sessionId, { tokenId: ids.usdt });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ token: "USDT", amount: "25", fiat: { tokenChosen: true } });
  });

  describe("refusals change nothing and announce nothing", () => {
    async function expectRefused(id: string, body: unknown, status: number, reason: string, message?: RegExp) {
      const before = await sessionRow(id).catch(() => null);
      const announcedBefore = announced.length;
      const res = await choose(id, body);
      expect(res.status).toBe(status);
      expect(res.body.error.reason).toBe(reason);
      if (message) expect(res.body.error.message).toMatch(message);
      if (before) expect(await sessionRow(id)).toEqual(before);
      await new Promise((r) => setTimeout(r, 50));
      expect(announced.length).toBe(announcedBefore);
      return res;
    }

    it("an unknown session is 404, a malformed id 400", async () => {
      await expectRefused(crypto.randomUUID(), { tokenId: ids.usdc }, 404, "not-found");
      const malformed = await call(chooseToken, { method: "POST", params: { sessionId: "nope" }, body: { tokenId: ids.usdc } });
      expect(malformed.status).toBe(400);
      expect(malformed.body.error.reason).toBe("invalid-request");
    });

    it("a session priced in a token: payment-not-fiat", async () => {
      await expectRefused(await tokenSession(), { tokenId: ids.usdt }, 400, "payment-not-fiat", /priced in a token/);
    });

    it("a completed, cancelled or expired session: payment-not-pending", async () => {
      await db()
        .update(paymentSessions)
        .set({ status: "completed", receivedAmount: USDT_25, completedAt: new Date() })
        .where(eq(paymentSessions.id, sessionId));
      await expectRefused(sessionId, { tokenId: ids.usdc }, 400, "payment-not-pending", /already completed/);

      const cancelled = await fiatSession();
      await db().update(paymentSessions).set({ status: "cancelled", cancelledAt: new Date() }).where(eq(paymentSessions.id, cancelled));
      await expectRefused(cancelled, { tokenId: ids.usdc }, 400, "payment-not-pending", /already cancelled/);

      // Still pending in the row, but its time (the quotes' window) is up.
      const due = await fiatSession();
      await db()
        .update(paymentSessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(paymentSessions.id, due));
      await expectRefused(due, { tokenId: ids.usdc }, 400, "payment-not-pending", /already expired/);
    });

    it("part already arrived: payment-partly-paid (the rest is asked in the token paid)", async () => {
      await db()
        .update(paymentSessions)
        .set({ receivedAmount: 10n ** 18n })
        .where(eq(paymentSessions.id, sessionId));
      await expectRefused(sessionId, { tokenId: ids.usdc }, 400, "payment-partly-paid", /already arrived/);
    });

    it("a token the session did not quote: token-not-offered, whether the merchant's, another session's quote or unknown", async () => {
      await expectRefused(sessionId, { tokenId: ids.dai }, 400, "token-not-offered");
      // DAI is quoted by another session: that quote is not this session's.
      await fiatSession([{ tokenId: ids.dai, amount: DAI_25, rate: "1.00000000" }]);
      await expectRefused(sessionId, { tokenId: ids.dai }, 400, "token-not-offered");
      await expectRefused(sessionId, { tokenId: 2_000_000_000 }, 400, "token-not-offered");
    });

    it("a session offering one token refuses the others", async () => {
      const single = await fiatSession([{ tokenId: ids.usdc, amount: USDC_25, rate: "0.99950000" }]);
      await expectRefused(single, { tokenId: ids.usdt }, 400, "token-not-offered");
      expect((await choose(single, { tokenId: ids.usdc })).status).toBe(200);
    });

    it("a hostile body: wrong types, out of range, missing, not an object, not JSON, a NUL", async () => {
      for (const body of [
        { tokenId: String(ids.usdc) },
        { tokenId: ids.usdc + 0.5 },
        { tokenId: -ids.usdc },
        { tokenId: 0 },
        { tokenId: 2 ** 31 },
        { tokenId: 1e300 },
        { tokenId: null },
        { tokenId: [ids.usdc] },
        { tokenId: { id: ids.usdc } },
        { tokenId: true },
        {},
        [ids.usdc],
        "tokenId",
        `{"tokenId": ${ids.usdc}`,
        { tokenId: ids.usdc, note: "a\u0000b" },
      ]) {
        const res = await expectRefused(sessionId, body, 400, "invalid-request");
        expect(res.body.error.code).toBe("VALIDATION_ERROR");
      }
    });

    it("a body over 64 KB", async () => {
      await expectRefused(sessionId, { tokenId: ids.usdc, pad: "x".repeat(70_000) }, 400, "invalid-request", /larger than/);
    });
  });
});

describe("chooseSessionToken", () => {
  it("refuses in order: not fiat before not pending, not pending before partly paid, partly paid before not offered", async () => {
    const tokenPriced = await tokenSession();
    await db().update(paymentSessions).set({ status: "completed", receivedAmount: USDT_25 }).where(eq(paymentSessions.id, tokenPriced));
    await expect(chooseSessionToken(db(), tokenPriced, ids.dai)).rejects.toMatchObject({ reason: "payment-not-fiat" });

    const paidAndClosed = await fiatSession();
    await db().update(paymentSessions).set({ status: "completed", receivedAmount: USDT_25 }).where(eq(paymentSessions.id, paidAndClosed));
    await expect(chooseSessionToken(db(), paidAndClosed, ids.dai)).rejects.toMatchObject({ reason: "payment-not-pending" });

    const partial = await fiatSession();
    await db().update(paymentSessions).set({ receivedAmount: 1n }).where(eq(paymentSessions.id, partial));
    await expect(chooseSessionToken(db(), partial, ids.dai)).rejects.toMatchObject({ reason: "payment-partly-paid" });
  });

  it("judges expiry by the time given: a choice a second before the end is taken, one at the end is not", async () => {
    const sessionId = await fiatSession();
    const { expiresAt } = await sessionRow(sessionId);
    await expect(chooseSessionToken(db(), sessionId, ids.usdc, expiresAt)).rejects.toMatchObject({ reason: "payment-not-pending" });
    const at = new Date(expiresAt.getTime() - 1000);
    expect(await chooseSessionToken(db(), sessionId, ids.usdc, at)).toEqual({ tokenId: ids.usdc, amount: USDC_25, rate: "0.99950000" });
    expect(await sessionRow(sessionId)).toMatchObject({ tokenChosenAt: at, updatedAt: at, expiresAt });
  });

  it("serializes with other choices: concurrent choices all land, the last committed one is asked", async () => {
    const sessionId = await fiatSession();
    const results = await Promise.all([
      chooseSessionToken(db(), sessionId, ids.usdc),
      chooseSessionToken(db(), sessionId, ids.usdt),
      chooseSessionToken(db(), sessionId, ids.usdc),
    ]);
    const row = await sessionRow(sessionId);
    expect(results.map((r) => r.tokenId)).toContain(row.tokenId);
    // Whichever won, the row is one consistent quote, never a mix of two.
    expect([
      [ids.usdt, USDT_25, "1.00000000"],
      [ids.usdc, USDC_25, "0.99950000"],
    ]).toContainEqual([row.tokenId, row.amount, row.rate]);
  });
});
