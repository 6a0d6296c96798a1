import { and, asc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { addressSchema } from "../chain/address";
import { assertNotServiceAddress } from "../chain/service-addresses";
import type { Db } from "../db";
import { domains, type Domain } from "../db/schema";
import { AppError } from "../errors";

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
  withdrawalAddress: string | null;
  createdAt: string;
}

export function toDomainView(domain: Domain): DomainView {
  return {
    domainId: domain.id,
    domain: domain.origin,
    payoutAddress: domain.payoutAddress,
    webhookUrl: domain.webhookUrl,
    withdrawalAddress: domain.withdrawalAddress,
    createdAt: domain.createdAt.toISOString(),
  };
}

export async function listDomains(db: Db, userId: number): Promise<DomainView[]> {
  const rows = await db
    .select()
    .from(domains)
    .where(and(eq(domains.userId, userId), isNull(domains.deletedAt)))
    .orderBy(asc(domains.id));
  return rows.map(toDomainView);
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
  const [updated] = await db
    .update(domains)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(domains.id, domainId))
    .returning();
  return toDomainView(updated!);
}

/**
 * Removes the domain from the whitelist. The row stays (marked deleted) because sessions and
 * withdrawals refer to it and its withdrawal wallet may still hold funds.
 */
export async function deleteDomain(db: Db, userId: number, domainId: number): Promise<void> {
  await getOwnDomain(db, userId, domainId);
  await db.update(domains).set({ deletedAt: new Date(), updatedAt: new Date() }).where(eq(domains.id, domainId));
}
