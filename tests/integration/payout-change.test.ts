import { and, eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { type Address, parseUnits } from "viem";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as payLink } from "@/app/api/links/[slug]/pay/route";
import { DELETE as cancelChange } from "@/app/api/user/domains/[id]/payout-change/route";
import { DELETE as deleteDomain, PATCH as patchDomain } from "@/app/api/user/domains/[id]/route";
import { POST as rotateSecret } from "@/app/api/user/domains/[id]/webhook-secret/route";
import { POST as addDomain, GET as listDomains } from "@/app/api/user/domains/route";
import { PATCH as patchLink } from "@/app/api/user/payment-links/[id]/route";
import { POST as createLink } from "@/app/api/user/payment-links/route";
import { POST as issueToken } from "@/app/api/user/token/route";
import { GET as listTokens } from "@/app/api/user/tokens/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { totpCode, totpStep } from "@/lib/accounts/users/totp";
import { confirmEnrolment, disableTwoFactor, startEnrolment } from "@/lib/accounts/users/two-factor";
import { envSchema } from "@/lib/base/config/env";
import { domains, forwards, paymentSessions, type User, users, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { applyDuePayoutChanges } from "@/lib/domain/merchant-domains/payout-change";
import { createDashboardPayment, dashboardPaymentSchema } from "@/lib/web/dashboard/payments/create-payment";
import { resetRateLimits } from "@/lib/web/http/rate-limit";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine, tokenBalance } from "../helpers/engine";
import { bearer, call, fromClient, SITE } from "../helpers/http";

/**
 * docs/design.md §21: a stolen session must not redirect later payments. With two-factor
 * on, every change of a payout or forward target, of the webhook URL or secret, needs a code; a new
 * payout address of a paid domain waits PAYOUT_CHANGE_DELAY, visible and cancellable; turning
 * two-factor on ends every other session.
 */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const SECRET = "integration-test-secret-0123456789";
const PASSWORD = "correct horse battery";
const OLD = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;
const THIEF = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955" as Address;
const config = () => useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "1", WEBHOOK_ALLOW_PRIVATE: "false" });

let usd: Address;
const userOf = async (id: number): Promise<User> => (await db().select().from(users).where(eq(users.id, id)))[0]!;
const cookieOf = async (user: User) => ({
  cookie: `next-auth.session-token=${await encode({ token: { sub: String(user.id), email: user.email, ver: user.tokenVersion }, secret: SECRET, maxAge: 600 })}`,
  origin: SITE,
});

interface Enrolled {
  merchant: Merchant;
  /** A fresh, unused code each call (the last used step is forgotten: each code works once). */
  code: () => Promise<string>;
  /** A bearer token and a dashboard cookie issued after two-factor was on: what a thief would hold. */
  token: Record<string, string>;
  cookie: Record<string, string>;
}

async function enrolled(): Promise<Enrolled> {
  const merchant = await setUpMerchant({ contractAddress: usd, network: "bsc" });
  const { secret } = await startEnrolment(db(), await userOf(merchant.userId));
  await confirmEnrolment(db(), await userOf(merchant.userId), totpCode(secret, totpStep()), PASSWORD);
  const code = async () => {
    await db().update(users).set({ totpLastStep: null }).where(eq(users.id, merchant.userId));
    return totpCode(secret, totpStep());
  };
  const signedIn = await call(issueToken, { method: "POST", body: { email: merchant.email, password: PASSWORD, code: await code() } });
  expect(signedIn.status).toBe(200);
  return { merchant, code, token: bearer(signedIn.body.data.token), cookie: await cookieOf(await userOf(merchant.userId)) };
}

const domainOf = async (m: Merchant, headers: Record<string, string>) =>
  (await call(listDomains, { headers })).body.data.find((d: { domainId: number }) => d.domainId === m.domainId);
const patch = (m: Merchant, headers: Record<string, string>, body: Record<string, unknown>) =>
  call(patchDomain, { method: "PATCH", headers, params: { id: String(m.domainId) }, body });
const payoutEvents = async (domainId: number) =>
  (
    await db()
      .select({ payload: webhookDeliveries.payload })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(and(eq(webhookEndpoints.domainId, domainId), eq(webhookDeliveries.eventType, "domain.payout_changed")))
      .orderBy(webhookDeliveries.id)
  ).map((r) => JSON.parse(r.payload).data as { status: string; payoutAddress: string | null; effectiveAt: string });

/** A real payment: session by API key, paid on anvil, detected and forwarded. Returns where it went. */
async function pay(m: Merchant, amount: string): Promise<string> {
  const res = await call(create, { method: "POST", headers: { "x-api-key": m.apiKey }, body: { tokenId: m.tokenId, amount } });
  expect(res.status).toBe(201);
  const hash = await payTo(chain().url, usd, res.body.data.depositAddress, parseUnits(amount, 18));
  await chain().client.waitForTransactionReceipt({ hash });
  await runEngine(db(), chain().url);
  const [session] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, res.body.data.sessionId));
  const [forward] = await db().select().from(forwards).where(eq(forwards.toAddress, session!.forwardTo));
  expect(forward).toBeDefined();
  return session!.forwardTo;
}

beforeAll(async () => {
  config();
  usd = await deployTestToken(chain().url, { symbol: "PAY" });
  await fundGasTank(chain().url);
});

beforeEach(async () => {
  config();
  await resetRateLimits();
});

describe("with two-factor on, a stolen session cannot redirect money or events without a code", () => {
  it("refuses a payout address, webhook URL or secret change by bearer token and by cookie; nothing changes", async () => {
    const { merchant, token, cookie } = await enrolled();
    for (const headers of [token, cookie]) {
      for (const body of [
        { payoutAddress: THIEF },
        { webhookUrl: "https://thief.example/hook" },
        { payoutAddress: THIEF, code: "000000" },
      ]) {
        const refused = await patch(merchant, headers, body);
        expect(refused.status).toBe(400);
        expect(refused.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "code" }] });
      }
      const rotated = await call(rotateSecret, { method: "POST", headers, params: { id: String(merchant.domainId) } });
      expect(rotated.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "code" }] });
    }
    const [row] = await db().select().from(domains).where(eq(domains.id, merchant.domainId));
    expect(row).toMatchObject({ payoutAddress: null, webhookUrl: null, pendingPayoutAddress: null, payoutChangeEffectiveAt: null });
  });

  it("refuses a payment link on another domain, and turning two-factor off, without a code", async () => {
    const { merchant, token, cookie, code } = await enrolled();
    const other = await call(addDomain, { method: "POST", headers: token, body: { domain: "https://other.example.com" } });
    const otherId = other.body.data.domainId as number;
    for (const headers of [token, cookie]) {
      const link = { title: "Beans", tokenId: merchant.tokenId, amount: "3", domainId: otherId };
      const refused = await call(createLink, { method: "POST", headers, body: link });
      expect(refused.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "code" }] });
    }
    // The default domain needs no code; moving the link to the other one does.
    const created = await call(createLink, {
      method: "POST",
      headers: token,
      body: { title: "Beans", tokenId: merchant.tokenId, amount: "3" },
    });
    expect(created.status).toBe(201);
    const linkId = String(created.body.data.linkId ?? created.body.data.id);
    const moved = await call(patchLink, { method: "PATCH", headers: cookie, params: { id: linkId }, body: { domainId: otherId } });
    expect(moved.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "code" }] });
    const withCode = await call(patchLink, {
      method: "PATCH",
      headers: cookie,
      params: { id: linkId },
      body: { domainId: otherId, code: await code() },
    });
    expect(withCode.status).toBe(200);
    expect(withCode.body.data.domainId).toBe(otherId);

    await expect(disableTwoFactor(db(), await userOf(merchant.userId), "")).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    expect((await userOf(merchant.userId)).totpEnabledAt).not.toBeNull();
  });

  it("takes no merchantWallet from a dashboard payment: it goes to the domain's payout target", async () => {
    const { merchant } = await enrolled();
    const form = dashboardPaymentSchema.parse({ tokenId: String(merchant.tokenId), amount: "1", merchantWallet: THIEF });
    const created = await createDashboardPayment(db(), merchant.userId, form);
    const [session] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, created.sessionId));
    expect(session!.forwardTo).toBe(merchant.withdrawalAddress);
  });
});

describe("a new payout address of a paid domain waits PAYOUT_CHANGE_DELAY", () => {
  it("keeps forwarding to the old address during the delay; the owner cancels and the address never changes", async () => {
    const { merchant, token, cookie, code } = await enrolled();
    // A domain never paid changes at once (nothing to redirect yet).
    const first = await patch(merchant, token, { payoutAddress: OLD, webhookUrl: "https://shop.example.com/hooks", code: await code() });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ payoutAddress: OLD, pendingPayoutAddress: null, payoutChangeEffectiveAt: null });
    expect(await pay(merchant, "5")).toBe(OLD);

    // The thief holds a session and (worst case) a code: the change waits a day.
    const before = Date.now();
    const requested = await patch(merchant, cookie, { payoutAddress: THIEF, code: await code() });
    expect(requested.status).toBe(200);
    expect(requested.body.data).toMatchObject({ payoutAddress: OLD, pendingPayoutAddress: THIEF });
    const effectiveAt = Date.parse(requested.body.data.payoutChangeEffectiveAt);
    expect(effectiveAt - before).toBeGreaterThanOrEqual(24 * 3600 * 1000 - 5000);
    expect(await domainOf(merchant, token)).toMatchObject({ payoutAddress: OLD, pendingPayoutAddress: THIEF });
    expect((await payoutEvents(merchant.domainId)).map((e) => e.status)).toEqual(["applied", "pending"]);
    expect((await payoutEvents(merchant.domainId))[1]).toMatchObject({
      payoutAddress: THIEF,
      effectiveAt: new Date(effectiveAt).toISOString(),
    });

    // Payments during the delay still reach the old address, job or no job.
    const oldBefore = await tokenBalance(chain().url, usd, OLD);
    await applyDuePayoutChanges(db());
    expect(await pay(merchant, "7")).toBe(OLD);
    expect(await tokenBalance(chain().url, usd, OLD)).toBe(oldBefore + parseUnits("7", 18));
    expect(await tokenBalance(chain().url, usd, THIEF)).toBe(0n);

    // The real merchant cancels (no code needed); later nothing changes.
    const owner = bearer(
      (await call(issueToken, { method: "POST", body: { email: merchant.email, password: PASSWORD, code: await code() } })).body.data.token,
    );
    const cancelled = await call(cancelChange, { method: "DELETE", headers: owner, params: { id: String(merchant.domainId) } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ payoutAddress: OLD, pendingPayoutAddress: null, payoutChangeEffectiveAt: null });
    expect((await payoutEvents(merchant.domainId)).map((e) => e.status)).toEqual(["applied", "pending", "cancelled"]);
    await applyDuePayoutChanges(db(), new Date(Date.now() + 48 * 3600 * 1000));
    expect(await domainOf(merchant, owner)).toMatchObject({ payoutAddress: OLD, pendingPayoutAddress: null });
    const again = await call(cancelChange, { method: "DELETE", headers: owner, params: { id: String(merchant.domainId) } });
    expect(again.status).toBe(400);
  });

  it("takes effect at its date for new sessions even before the job folds it, then the job announces it", async () => {
    const { merchant, token, code } = await enrolled();
    await patch(merchant, token, { payoutAddress: OLD, webhookUrl: "https://shop.example.com/hooks", code: await code() });
    await pay(merchant, "2");
    const requested = await patch(merchant, token, { payoutAddress: THIEF, code: await code() });
    expect(requested.body.data.pendingPayoutAddress).toBe(THIEF);
    // A day passes (the date moved back instead).
    await db()
      .update(domains)
      .set({ payoutChangeEffectiveAt: new Date(Date.now() - 1000) })
      .where(eq(domains.id, merchant.domainId));
    const res = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount: "1" },
    });
    const [session] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, res.body.data.sessionId));
    expect(session!.forwardTo).toBe(THIEF);
    expect(await domainOf(merchant, token)).toMatchObject({ payoutAddress: THIEF, pendingPayoutAddress: null });
    expect(await applyDuePayoutChanges(db())).toBeGreaterThanOrEqual(1);
    const [row] = await db().select().from(domains).where(eq(domains.id, merchant.domainId));
    expect(row).toMatchObject({ payoutAddress: THIEF, pendingPayoutAddress: null, payoutChangeEffectiveAt: null });
    expect((await payoutEvents(merchant.domainId)).map((e) => e.status)).toEqual(["applied", "pending", "applied"]);
  });

  it.each([
    ["the same origin", "https://again.example.com"],
    ["another origin, which becomes the first domain", "https://elsewhere.example.com"],
  ])("keeps the delay when the paid domain is deleted and one is added again (%s)", async (_, origin) => {
    const merchant = await setUpMerchant({ contractAddress: usd, network: "bsc", domain: "https://again.example.com" });
    await patch(merchant, merchant.auth, { payoutAddress: OLD });
    await pay(merchant, "1");
    const removed = await call(deleteDomain, { method: "DELETE", headers: merchant.auth, params: { id: String(merchant.domainId) } });
    expect(removed.status).toBe(200);
    const added = await call(addDomain, { method: "POST", headers: merchant.auth, body: { domain: origin } });
    const fresh = { ...merchant, domainId: added.body.data.domainId as number };
    const changed = await patch(fresh, merchant.auth, { payoutAddress: THIEF });
    expect(changed.body.data).toMatchObject({ payoutAddress: null, pendingPayoutAddress: THIEF });
  });

  it("makes a second shop's domain, added beside the paid one, wait too: the merchant was paid", async () => {
    const merchant = await setUpMerchant({ contractAddress: usd, network: "bsc", domain: "https://first.example.com" });
    await patch(merchant, merchant.auth, { payoutAddress: OLD });
    await pay(merchant, "1");
    const beside = await call(addDomain, { method: "POST", headers: merchant.auth, body: { domain: "https://beside.example.com" } });
    const second = await patch({ ...merchant, domainId: beside.body.data.domainId }, merchant.auth, { payoutAddress: THIEF });
    expect(second.body.data).toMatchObject({ payoutAddress: null, pendingPayoutAddress: THIEF });
    expect(await pay(merchant, "1")).toBe(OLD); // a session without domainId or Origin: the first domain
  });

  it("keeps the delay when a stolen session adds a fresh domain, sets its payout address and moves the links onto it", async () => {
    const merchant = await setUpMerchant({ contractAddress: usd, network: "bsc", domain: "https://links.example.com" });
    await patch(merchant, merchant.auth, { payoutAddress: OLD });
    const link = await call(createLink, {
      method: "POST",
      headers: merchant.auth,
      body: { title: "Beans", tokenId: merchant.tokenId, amount: "3" },
    });
    const linkId = String(link.body.data.linkId ?? link.body.data.id);
    const linkSession = async (ip: string) => {
      const opened = await call(payLink, { method: "POST", params: { slug: link.body.data.slug }, body: {}, headers: fromClient(ip) });
      expect(opened.status).toBe(201);
      return (await db().select().from(paymentSessions).where(eq(paymentSessions.id, opened.body.data.sessionId)))[0]!.forwardTo;
    };
    expect(await linkSession("198.51.100.31")).toBe(OLD);
    await pay(merchant, "1");

    // The thief (two-factor off: no code asked) adds a domain the merchant was never paid on.
    const added = await call(addDomain, { method: "POST", headers: merchant.auth, body: { domain: "https://thief-shop.example.com" } });
    const fresh = { ...merchant, domainId: added.body.data.domainId as number };
    const changed = await patch(fresh, merchant.auth, { payoutAddress: THIEF });
    expect(changed.body.data).toMatchObject({ payoutAddress: null, pendingPayoutAddress: THIEF });
    const moved = await call(patchLink, {
      method: "PATCH",
      headers: merchant.auth,
      params: { id: linkId },
      body: { domainId: fresh.domainId },
    });
    expect(moved.status).toBe(200);
    // The link's next session forwards to the fresh domain's own withdrawal wallet, not the thief.
    const next = await linkSession("198.51.100.32");
    expect(next.toLowerCase()).not.toBe(THIEF.toLowerCase());
    expect(next.toLowerCase()).toBe(String(added.body.data.withdrawalAddress).toLowerCase());
  });

  it("asks a code to go back to the old raw address once a change is past its date but not folded yet", async () => {
    const { merchant, token, code } = await enrolled();
    await patch(merchant, token, { payoutAddress: OLD, webhookUrl: "https://shop.example.com/hooks", code: await code() });
    await pay(merchant, "1");
    const NEW = "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720";
    expect((await patch(merchant, token, { payoutAddress: NEW, code: await code() })).body.data.pendingPayoutAddress).toBe(NEW);
    await db()
      .update(domains)
      .set({ payoutChangeEffectiveAt: new Date(Date.now() - 1000) })
      .where(eq(domains.id, merchant.domainId));
    const [before] = await db().select().from(domains).where(eq(domains.id, merchant.domainId));
    expect(before).toMatchObject({ payoutAddress: OLD, pendingPayoutAddress: NEW }); // raw: OLD; in force: NEW
    const refused = await patch(merchant, token, { payoutAddress: OLD });
    expect(refused.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "code" }] });
    expect((await db().select().from(domains).where(eq(domains.id, merchant.domainId)))[0]).toEqual(before);
    // The address in force again needs no code and changes nothing.
    const same = await patch(merchant, token, { payoutAddress: NEW });
    expect(same.body.data).toMatchObject({ payoutAddress: NEW, pendingPayoutAddress: null });
    expect((await payoutEvents(merchant.domainId)).map((e) => e.status)).toEqual(["applied", "pending", "applied"]);
  });

  it("changes at once with PAYOUT_CHANGE_DELAY=0, and parses seconds or a duration", async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "1", PAYOUT_CHANGE_DELAY: "0" });
    const merchant = await setUpMerchant({ contractAddress: usd, network: "bsc" });
    await patch(merchant, merchant.auth, { payoutAddress: OLD });
    await pay(merchant, "1");
    const changed = await patch(merchant, merchant.auth, { payoutAddress: THIEF });
    expect(changed.body.data).toMatchObject({ payoutAddress: THIEF, pendingPayoutAddress: null });
    const parse = (v: string) => envSchema.shape.PAYOUT_CHANGE_DELAY.safeParse(v);
    expect([parse("0").data, parse("3600").data, parse("24h").data, parse("90m").data, parse("2d").data]).toEqual([
      0, 3600, 86_400, 5400, 172_800,
    ]);
    for (const bad of ["-1", "1w", "31d", "soon"]) expect(parse(bad).success).toBe(false);
  });
});

describe("turning two-factor on or off ends every other session", () => {
  it("revokes bearer tokens and cookies issued before; the password (and code) sign in again", async () => {
    const merchant = await setUpMerchant({ contractAddress: usd, network: "bsc" });
    const browser = await cookieOf(await userOf(merchant.userId));
    for (const headers of [merchant.auth, browser]) expect((await call(listTokens, { headers })).status).toBe(200);
    const { secret } = await startEnrolment(db(), await userOf(merchant.userId));
    await confirmEnrolment(db(), await userOf(merchant.userId), totpCode(secret, totpStep()), PASSWORD);
    for (const headers of [merchant.auth, browser]) expect((await call(listTokens, { headers })).status).toBe(401);

    const afterOn = await cookieOf(await userOf(merchant.userId));
    expect((await call(listTokens, { headers: afterOn })).status).toBe(200);
    await db().update(users).set({ totpLastStep: null }).where(eq(users.id, merchant.userId));
    await disableTwoFactor(db(), await userOf(merchant.userId), totpCode(secret, totpStep()));
    expect((await call(listTokens, { headers: afterOn })).status).toBe(401);
  });
});
