import { and, asc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { addressSchema } from "../chain/address";
import { assertNotServiceAddress } from "../chain/service-addresses";
import { getConfig } from "../config";
import type { Db } from "../db";
import { requireRow } from "../db/rows";
import { type Domain, domains, type WebhookEndpoint, webhookEndpoints } from "../db/schema";
import { AppError } from "../errors";
import { endpointOfDomain, syncEndpoint } from "../webhooks/endpoints";
import { webhookUrlProblem } from "../webhooks/webhook-url";
import { domainDeletionBlockers } from "./deletion-blockers";

export const addDomainSchema = z.object({
  domain: z.string({ error: "domain must be a string (an origin URL such as https://shop.example.com)" }),
});

const webhookUrl = z
  .string({ error: "webhookUrl must be a string" })
  .trim()
  .max(2000, { error: "webhookUrl is too long" })
  .refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v), { message: "webhookUrl must be an http(s) URL" });

export const updateDomainSchema = z
  .object({
    payoutAddress: addressSchema("payoutAddress").nullable().optional(),
    webhookUrl: webhookUrl.nullable().optional(),
  })
  .refine((v) => v.payoutAddress !== undefined || v.webhookUrl !== undefined, {
    message: "send payoutAddress and/or webhookUrl (null clears one)",
  });

export interface DomainView {
  domainId: number;
  domain: string;
  payoutAddress: string | null;
  webhookUrl: string | null;
  /** Signs this domain's webhooks (Standard Webhooks "whsec_…"); shown to its owner while a webhookUrl is set. */
  webhookSecret: string | null;
  withdrawalAddress: string | null;
  createdAt: string;
}

export function toDomainView(domain: Domain, endpoint: Pick<WebhookEndpoint, "secret" | "enabled"> | null = null): DomainView {
  return {
    domainId: domain.id,
    domain: domain.origin,
    payoutAddress: domain.payoutAddress,
    webhookUrl: domain.webhookUrl,
    webhookSecret: domain.webhookUrl && endpoint?.enabled ? endpoint.secret : null,
    withdrawalAddress: domain.withdrawalAddress,
    createdAt: domain.createdAt.toISOString(),
  };
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

/** The owner's view of one domain, with its webhook secret. */
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
  if (!domain) throw new AppError("NOT_FOUND", "domain not found");
  return domain;
}

export async function updateDomain(
  db: Db,
  userId: number,
  domainId: number,
  changes: z.output<typeof updateDomainSchema>,
): Promise<DomainView> {
  await getOwnDomain(db, userId, domainId);
  await assertNotServiceAddress(db, changes.payoutAddress, "payoutAddress");
  const problem = changes.webhookUrl ? webhookUrlProblem(changes.webhookUrl, getConfig().webhookAllowPrivate) : null;
  if (problem) throw new AppError("VALIDATION_ERROR", problem, [{ path: "webhookUrl", message: problem }]);
  return db.transaction(async (tx) => {
    const updated = requireRow(
      await tx
        .update(domains)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(domains.id, domainId))
        .returning(),
      `update of domain ${domainId}`,
    );
    const endpoint = await syncEndpoint(tx, updated);
    return toDomainView(updated, endpoint);
  });
}

/**
 * Removes the domain from the whitelist. The row stays (marked deleted) because sessions and
 * withdrawals refer to it and its withdrawal wallet may still hold funds.
 */
export async function deleteDomain(db: Db, userId: number, domainId: number): Promise<void> {
  const domain = await getOwnDomain(db, userId, domainId);
  const blockers = await domainDeletionBlockers(db, userId, domain);
  if (blockers.length > 0) throw new AppError("VALIDATION_ERROR", `${domain.origin} cannot be deleted yet: ${blockers.join("; ")}`);
  await db.transaction(async (tx) => {
    const removed = requireRow(
      await tx.update(domains).set({ deletedAt: new Date(), updatedAt: new Date() }).where(eq(domains.id, domainId)).returning(),
      `deletion of domain ${domainId}`,
    );
    await syncEndpoint(tx, removed); // its webhooks stop with it
  });
}
