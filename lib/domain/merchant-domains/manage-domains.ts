import { and, asc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { audit, byMember } from "../../accounts/audit/audit-origin";
import { type Principal, requirePermission } from "../../accounts/members/principal";
import { requireSecondFactor } from "../../accounts/users/two-factor";
import { getConfig } from "../../base/config";
import { commonRefusal } from "../../base/errors";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import { type Domain, domains, type WebhookEndpoint, webhookEndpoints } from "../../db/schema";
import { addressSchema } from "../../engine/chain/address";
import { endpointOfDomain, hasEndpoint, syncEndpoint } from "../webhooks/endpoints";
import { webhookUrlProblem } from "../webhooks/webhook-url";
import { domainDeletionBlockers } from "./deletion-blockers";
import { FIAT_BPS_MAX, fiatThresholdsOf } from "./fiat-thresholds";
import { assertNotServiceAddress } from "./gateway-addresses";
import { cancelPayoutChange, payoutInForce, pendingPayoutChange, requestPayoutChange, sameAddress } from "./payout-change";
import { domainRefusal } from "./reasons";

export const addDomainSchema = z.object({
  domain: z.string({ error: "domain must be a string (an origin URL such as https://shop.example.com)" }),
});

const webhookUrl = z
  .string({ error: "webhookUrl must be a string" })
  .trim()
  .max(2000, { error: "webhookUrl is too long" })
  .refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v), { message: "webhookUrl must be an http(s) URL" });

/** A current two-factor code: with two-factor on, a change of where money or events go needs one (docs/design.md §21). */
export const twoFactorCodeField = z.string({ error: "code must be a string" }).trim().max(32, { error: "code is too long" }).optional();

/** A domain's fiat threshold: whole basis points 0–1000 (0 … 10 %); null goes back to the gateway's default. */
const fiatBps = (field: string) =>
  z
    .number({ error: `${field} must be a whole number of basis points from 0 to ${FIAT_BPS_MAX}, or null for the gateway's default` })
    .int({ error: `${field} must be a whole number of basis points (50 = 0.5 %)` })
    .min(0, { error: `${field} must be at least 0` })
    .max(FIAT_BPS_MAX, { error: `${field} must be at most ${FIAT_BPS_MAX} (10 %)` });

export const updateDomainSchema = z
  .object({
    payoutAddress: addressSchema("payoutAddress").nullable().optional(),
    webhookUrl: webhookUrl.nullable().optional(),
    fiatUnderpayBps: fiatBps("fiatUnderpayBps").nullable().optional(),
    fiatRateToleranceBps: fiatBps("fiatRateToleranceBps").nullable().optional(),
    code: twoFactorCodeField,
  })
  .refine(
    (v) =>
      v.payoutAddress !== undefined ||
      v.webhookUrl !== undefined ||
      v.fiatUnderpayBps !== undefined ||
      v.fiatRateToleranceBps !== undefined,
    {
      message: "send payoutAddress and/or webhookUrl, or fiatUnderpayBps and/or fiatRateToleranceBps (null clears one)",
    },
  );

export interface DomainView {
  domainId: number;
  domain: string;
  payoutAddress: string | null;
  webhookUrl: string | null;
  /**
   * Names the secret that signs this domain's webhooks ("whsec_…" + its last 4 characters) while a
   * webhookUrl is set; the secret itself only on request (webhook-secret.ts).
   */
  webhookSecretHint: string | null;
  withdrawalAddress: string | null;
  /** A payout address change waiting for its date (docs/design.md §21); the owner may cancel it until then. */
  pendingPayoutAddress: string | null;
  /** When that change takes effect (null: none waiting). */
  payoutChangeEffectiveAt: string | null;
  payoutChangeRequestedAt: string | null;
  /** Fiat sessions short by less than this many basis points count as paid; null: the gateway's (`fiatUnderpayBpsInForce`). */
  fiatUnderpayBps: number | null;
  /** A transfer after a fiat session's window counts at its block's rate within this many basis points of the quote; null: the gateway's. */
  fiatRateToleranceBps: number | null;
  /** The thresholds in force: the domain's, else FIAT_UNDERPAY_BPS / FIAT_RATE_TOLERANCE_BPS. */
  fiatUnderpayBpsInForce: number;
  fiatRateToleranceBpsInForce: number;
  createdAt: string;
}

export function toDomainView(
  domain: Domain,
  endpoint: Pick<WebhookEndpoint, "secret" | "enabled"> | null = null,
  now = new Date(),
): DomainView {
  const pending = pendingPayoutChange(domain, now);
  const inForce = fiatThresholdsOf(domain);
  return {
    domainId: domain.id,
    domain: domain.origin,
    // By time, like the session insert: a change past its date is in force even before the job folds it.
    payoutAddress: payoutInForce(domain, now),
    webhookUrl: domain.webhookUrl,
    webhookSecretHint: domain.webhookUrl && endpoint?.enabled ? webhookSecretHint(endpoint.secret) : null,
    withdrawalAddress: domain.withdrawalAddress,
    pendingPayoutAddress: pending?.payoutAddress ?? null,
    payoutChangeEffectiveAt: pending?.effectiveAt ?? null,
    payoutChangeRequestedAt: pending?.requestedAt ?? null,
    fiatUnderpayBps: domain.fiatUnderpayBps,
    fiatRateToleranceBps: domain.fiatRateToleranceBps,
    fiatUnderpayBpsInForce: Number(inForce.underpayBps),
    fiatRateToleranceBpsInForce: Number(inForce.rateToleranceBps),
    createdAt: domain.createdAt.toISOString(),
  };
}

/** "whsec_…" and the secret's last 4 characters: enough to tell secrets apart, nothing to sign with. */
export function webhookSecretHint(secret: string): string {
  return `whsec_…${secret.slice(-4)}`;
}

export async function listDomains(db: Db, userId: number): Promise<DomainView[]> {
  const rows = await db
    .select({ domain: domains, endpoint: webhookEndpoints })
    .from(domains)
    .leftJoin(webhookEndpoints, eq(webhookEndpoints.domainId, domains.id))
    .where(and(eq(domains.userId, userId), isNull(domains.deletedAt)))
    .orderBy(asc(domains.id));
  return rows.map((r) => toDomainView(r.domain, r.endpoint));
}

/** The account's view of one domain (its webhook secret's hint, never the secret). */
export async function getDomainView(db: Db, userId: number, domainId: number): Promise<DomainView> {
  const domain = await getOwnDomain(db, userId, domainId);
  return toDomainView(domain, await endpointOfDomain(db, domain.id));
}

/** A live domain of this user; another user's or a deleted one is NOT_FOUND. */
export async function getOwnDomain(db: Db, userId: number, domainId: number): Promise<Domain> {
  const [domain] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.id, domainId), eq(domains.userId, userId), isNull(domains.deletedAt)));
  if (!domain) throw commonRefusal("NOT_FOUND", "not-found", "domain not found");
  return domain;
}

/**
 * Changes a domain's payout address and/or webhook URL. With two-factor on, a real change of either
 * needs a current code (a stolen session must not redirect money or events); a new payout address
 * waits PAYOUT_CHANGE_DELAY once the merchant has been paid (payout-change.ts). The first webhook
 * URL makes the domain's signing secret: that answer carries it (`webhookSecret`), once — no
 * receiver trusts it yet; afterwards only its hint (webhook-secret.ts reveals it on request).
 */
export async function updateDomain(
  db: Db,
  principal: Principal,
  domainId: number,
  changes: z.output<typeof updateDomainSchema>,
): Promise<DomainView & { webhookSecret?: string }> {
  const { account, member } = principal;
  const current = await getOwnDomain(db, account.id, domainId);
  const { code, payoutAddress, webhookUrl, fiatUnderpayBps, fiatRateToleranceBps } = changes;
  // Against the address in force and the change still waiting, at the same `now` as the request
  // below: a change past its date but not yet folded must not let the old raw address back in
  // without a code. Either one again changes nothing (requestPayoutChange), so needs no code.
  const now = new Date();
  const waiting = pendingPayoutChange(current, now);
  const payoutChanges =
    payoutAddress !== undefined &&
    !sameAddress(payoutAddress, payoutInForce(current, now)) &&
    !(waiting && sameAddress(payoutAddress, waiting.payoutAddress));
  const webhookChanges = webhookUrl !== undefined && webhookUrl !== current.webhookUrl;
  const fiatChanges =
    (fiatUnderpayBps !== undefined && fiatUnderpayBps !== current.fiatUnderpayBps) ||
    (fiatRateToleranceBps !== undefined && fiatRateToleranceBps !== current.fiatRateToleranceBps);
  // Each field is its own area (docs/design.md §24): where money goes is the owner's alone.
  if (payoutChanges) requirePermission(principal, "payout-targets");
  if (webhookChanges) requirePermission(principal, "developer");
  if (fiatChanges) requirePermission(principal, "settings");
  if (payoutChanges || webhookChanges) await requireSecondFactor(db, member, code);
  await assertNotServiceAddress(db, payoutAddress, "payoutAddress");
  const problem = webhookUrl ? webhookUrlProblem(webhookUrl, getConfig().webhookAllowPrivate) : null;
  if (problem) throw domainRefusal("VALIDATION_ERROR", "domain-webhook-url-invalid", problem, [{ path: "webhookUrl", message: problem }]);
  return db.transaction(async (tx) => {
    let updated = current;
    if (fiatUnderpayBps !== undefined || fiatRateToleranceBps !== undefined) {
      updated = requireRow(
        await tx
          .update(domains)
          .set({ fiatUnderpayBps, fiatRateToleranceBps, updatedAt: new Date() })
          .where(eq(domains.id, domainId))
          .returning(),
        `update of domain ${domainId}`,
      );
    }
    if (webhookUrl !== undefined) {
      updated = requireRow(
        await tx.update(domains).set({ webhookUrl, updatedAt: new Date() }).where(eq(domains.id, domainId)).returning(),
        `update of domain ${domainId}`,
      );
    }
    // The endpoint first: a URL set in the same request receives the payout change's announcement.
    // (After the domain's row is written: two requests setting a first URL take turns on it.)
    const made = webhookUrl ? !(await hasEndpoint(tx, domainId)) : false;
    const endpoint = await syncEndpoint(tx, updated);
    if (payoutAddress !== undefined) updated = await requestPayoutChange(tx, domainId, payoutAddress, member.id, now);
    const target = { type: "domain", id: domainId };
    if (payoutChanges)
      await audit(tx, byMember(principal), {
        action: "domain.payout_target_changed",
        target,
        before: { payoutAddress: payoutInForce(current, now) },
        after: { payoutAddress, effectiveAt: (updated.payoutChangeEffectiveAt ?? now).toISOString() },
      });
    if (webhookChanges)
      await audit(tx, byMember(principal), {
        action: "domain.webhook_changed",
        target,
        before: { webhookUrl: current.webhookUrl },
        after: { webhookUrl },
      });
    const view = toDomainView(updated, endpoint);
    return made && endpoint ? { ...view, webhookSecret: endpoint.secret } : view;
  });
}

/** The owner withdraws a waiting payout address change (no code needed: it only makes things safer). */
export async function cancelDomainPayoutChange(db: Db, userId: number, domainId: number): Promise<DomainView> {
  await getOwnDomain(db, userId, domainId);
  const domain = await cancelPayoutChange(db, domainId);
  return toDomainView(domain, await endpointOfDomain(db, domain.id));
}

/**
 * Removes the domain from the whitelist. The row stays (marked deleted) because sessions and
 * withdrawals refer to it and its withdrawal wallet may still hold funds.
 */
export async function deleteDomain(db: Db, userId: number, domainId: number): Promise<void> {
  const domain = await getOwnDomain(db, userId, domainId);
  const blockers = await domainDeletionBlockers(db, userId, domain);
  if (blockers.length > 0)
    throw domainRefusal("VALIDATION_ERROR", "domain-deletion-blocked", `${domain.origin} cannot be deleted yet: ${blockers.join("; ")}`);
  await db.transaction(async (tx) => {
    const removed = requireRow(
      await tx.update(domains).set({ deletedAt: new Date(), updatedAt: new Date() }).where(eq(domains.id, domainId)).returning(),
      `deletion of domain ${domainId}`,
    );
    await syncEndpoint(tx, removed); // its webhooks stop with it
  });
}
