/**
 * The webhook signing secret only on request (deliverable 7), played by insiders: a
 * viewer, a finance member or a developer reads every /api/user answer and every dashboard page's
 * data and finds only `webhookSecretHint`, never the `whsec_…` that would let them sign a forged
 * payment.completed; the secret shows once when it is made, and afterwards only to
 * POST …/webhook-secret/reveal with the developer permission and the member's two-factor code.
 */

import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as auditLog } from "@/app/api/user/audit/route";
import { GET as getDomain, PATCH as patchDomain } from "@/app/api/user/domains/[id]/route";
import { GET as deliveriesRoute } from "@/app/api/user/domains/[id]/webhook-deliveries/route";
import { POST as reveal } from "@/app/api/user/domains/[id]/webhook-secret/reveal/route";
import { POST as rotate } from "@/app/api/user/domains/[id]/webhook-secret/route";
import { POST as sendTest } from "@/app/api/user/domains/[id]/webhook-test/route";
import { GET as listDomains } from "@/app/api/user/domains/route";
import { auditEvents, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { loadDomainsPage } from "@/lib/web/dashboard/domains/loaders";
import { loadLinksPage } from "@/lib/web/dashboard/links/loaders";
import { loadCreatePaymentPage, loadPaymentsPage } from "@/lib/web/dashboard/payments/loaders";
import { loadWebhooksPage } from "@/lib/web/dashboard/webhooks/loaders";
import { loadWithdrawalsPage } from "@/lib/web/dashboard/withdrawals/loaders";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";
import { addMember, type TestMember } from "../helpers/insiders";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const WHSEC = /whsec_[A-Za-z0-9+/]{20,}/;

let merchant: Merchant;
let secret: string;
const params = () => ({ id: String(merchant.domainId) });
const endpointRow = async () => (await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.domainId, merchant.domainId)))[0]!;

/** Nothing `what` shows carries a signing secret (this one, or any whsec_ longer than a hint). */
function expectNoSecret(what: string, seen: unknown, current = secret) {
  const text = JSON.stringify(seen);
  expect(text.includes(current.slice(6)), `${what} carries the signing secret`).toBe(false);
  expect(text, what).not.toMatch(WHSEC);
}

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", WEBHOOK_ALLOW_PRIVATE: "true" });
  merchant = await setUpMerchant({ contractAddress: await deployTestToken(chain().url), network: "bsc" });
  const saved = await call(patchDomain, {
    method: "PATCH",
    headers: merchant.auth,
    params: params(),
    body: { webhookUrl: "http://127.0.0.1:9/hooks" },
  });
  // The request that makes the secret is the one answer that carries it.
  secret = saved.body.data.webhookSecret;
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  expect(saved.body.data.webhookSecretHint).toBe(`whsec_…${secret.slice(-4)}`);
  await call(sendTest, { method: "POST", headers: merchant.auth, params: params() });
});

describe("insiders reading everything their role may", () => {
  it("find the hint, never the secret: every /api/user answer and every dashboard page's data", async () => {
    for (const role of ["viewer", "finance", "developer", "admin"] as const) {
      const member = await addMember(db(), merchant.userId, role, { twoFactor: false });
      const { headers } = member;
      const answers = {
        list: await call(listDomains, { headers }),
        one: await call(getDomain, { headers, params: params() }),
        deliveries: await call(deliveriesRoute, { headers, params: params() }),
        audit: await call(auditLog, { headers }),
      };
      expect(answers.list.status).toBe(200);
      expect(answers.list.body.data[0]).toMatchObject({ webhookSecretHint: `whsec_…${secret.slice(-4)}` });
      expect(answers.list.body.data[0]).not.toHaveProperty("webhookSecret");
      for (const [what, res] of Object.entries(answers)) expectNoSecret(`${role}: ${what}`, res.body);
      // Those who may not reveal are refused before anything else.
      if (role === "viewer" || role === "finance") {
        const refused = await call(reveal, { method: "POST", headers, params: params(), body: { code: "123456" } });
        expect([refused.status, refused.body.error.reason]).toEqual([403, "role-forbids"]);
      }
    }
    const pages = {
      domains: await loadDomainsPage(merchant.userId, () => ({ limit: 20 })),
      webhooks: await loadWebhooksPage(merchant.userId),
      payments: await loadPaymentsPage(merchant.userId, { page: 1, limit: 20 }),
      links: await loadLinksPage(merchant.userId),
      newPayment: await loadCreatePaymentPage(merchant.userId),
      withdrawals: await loadWithdrawalsPage(merchant.userId, { limit: 20 }),
    };
    for (const [what, data] of Object.entries(pages)) expectNoSecret(`page ${what}`, data);
    expect(pages.domains.domains[0]?.webhookSecretHint).toBe(`whsec_…${secret.slice(-4)}`);
    // The domain's events are still signed with it.
    const [ping] = await db().select().from(webhookDeliveries);
    expect(ping?.payload).toBeDefined();
  });
});

describe("reveal", () => {
  let developer: TestMember;
  beforeAll(async () => {
    developer = await addMember(db(), merchant.userId, "developer");
  });

  it("needs the developer permission and the member's two-factor code; a member without two-factor is told to turn it on", async () => {
    const noTwoFactor = await addMember(db(), merchant.userId, "developer", { twoFactor: false });
    const refused = await call(reveal, { method: "POST", headers: noTwoFactor.headers, params: params(), body: {} });
    expect([refused.status, refused.body.error.reason]).toEqual([403, "webhook-secret-needs-two-factor"]);
    expect(refused.body.error.message).toMatch(/turn on two-factor/);
    const missing = await call(reveal, { method: "POST", headers: developer.headers, params: params(), body: {} });
    expect([missing.status, missing.body.error.reason]).toEqual([400, "two-factor-code-required"]);
    const wrong = await call(reveal, { method: "POST", headers: developer.headers, params: params(), body: { code: "000000" } });
    expect(wrong.status).toBe(400);
    for (const res of [refused, missing, wrong]) expectNoSecret("a refusal", res.body);
    const before = (await db().select().from(auditEvents).where(eq(auditEvents.action, "domain.webhook_secret_revealed"))).length;
    expect(before).toBe(0);

    const shown = await call(reveal, { method: "POST", headers: developer.headers, params: params(), body: { code: developer.code() } });
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(shown.headers.get("cache-control")).toBe("no-store");
    expect(shown.body.data).toEqual({
      domainId: merchant.domainId,
      webhookSecret: secret,
      webhookSecretHint: `whsec_…${secret.slice(-4)}`,
      previousSecret: null,
      previousSecretExpiresAt: null,
    });
    // It is the key the shop's receiver verifies with.
    const [delivery] = await db().select().from(webhookDeliveries);
    const signature = new Webhook(secret).sign(delivery!.eventId, new Date(), delivery!.payload);
    expect(() =>
      new Webhook(shown.body.data.webhookSecret).verify(delivery!.payload, {
        "webhook-id": delivery!.eventId,
        "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
        "webhook-signature": signature,
      }),
    ).not.toThrow();
    const audited = await db().select().from(auditEvents).where(eq(auditEvents.action, "domain.webhook_secret_revealed"));
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ actorUserId: developer.userId, targetId: String(merchant.domainId) });
    expectNoSecret("the audit row", audited);
  });

  it("after a rotation: the new secret in the rotation's answer once, both while the old one still signs", async () => {
    const rotator = await addMember(db(), merchant.userId, "admin");
    const rotated = await call(rotate, { method: "POST", headers: rotator.headers, params: params(), body: { code: rotator.code() } });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const fresh = rotated.body.data.webhookSecret as string;
    expect(fresh).not.toBe(secret);
    expect(rotated.body.data.webhookSecretHint).toBe(`whsec_…${fresh.slice(-4)}`);
    expect((await endpointRow()).secret).toBe(fresh);
    const read = await call(getDomain, { headers: merchant.auth, params: params() });
    expectNoSecret("the domain after rotation", read.body, fresh);
    expectNoSecret("the domain after rotation", read.body, secret);

    const other = await addMember(db(), merchant.userId, "developer");
    const shown = await call(reveal, { method: "POST", headers: other.headers, params: params(), body: { code: other.code() } });
    expect(shown.body.data).toMatchObject({ webhookSecret: fresh, previousSecret: secret, previousSecretExpiresAt: expect.any(String) });
    const audited = await db().select().from(auditEvents).where(eq(auditEvents.action, "domain.webhook_secret_rotated"));
    expect(audited).toHaveLength(1);
    expectNoSecret("the rotation's audit row", audited, fresh);
    secret = fresh;
  });

  it("changes nothing on bad input: another account's domain, a bad id, a domain without a webhook URL", async () => {
    const before = await endpointRow();
    const stranger = await setUpMerchant({
      contractAddress: await deployTestToken(chain().url),
      network: "bsc",
      domain: "https://x.example",
    });
    const strangerDev = await addMember(db(), stranger.userId, "developer");
    const foreign = await call(reveal, { method: "POST", headers: strangerDev.headers, params: params(), body: { code: "000000" } });
    expect(foreign.status).toBe(404);
    const bad = await call(reveal, { method: "POST", headers: developer.headers, params: { id: "x" }, body: {} });
    expect(bad.status).toBe(400);
    const bare = await call(reveal, {
      method: "POST",
      headers: strangerDev.headers,
      params: { id: String(stranger.domainId) },
      body: { code: strangerDev.code() },
    });
    expect([bare.status, bare.body.error.reason]).toEqual([400, "webhook-url-missing"]);
    expect(await endpointRow()).toEqual(before);
  });
});
