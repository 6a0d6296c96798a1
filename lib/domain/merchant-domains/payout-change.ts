/**
 * A domain's payout address changes only after a delay (docs/design.md §21): a stolen session that sets
 * its own address must not receive the next payment. The request is stored on the domain
 * (pending_payout_address, requested at/by, effective at); until effective_at every new session
 * still captures the old address, because the one read of the address in force
 * (`payoutAddressInForce`, used by the session insert) honours the pending change by time. The
 * schedule folds a due change into payout_address (`applyDuePayoutChanges`), but nothing depends on
 * it running on time: the time rule alone decides. The owner sees the change and may cancel it
 * until then. No delay while the merchant has never received a payment on any domain: there is
 * nothing to redirect yet. Merchant-wide, not per domain: a stolen session could otherwise add a
 * fresh domain, set its payout address at once and move the payment links onto it.
 */
import { and, eq, isNotNull, lte, type SQL, sql } from "drizzle-orm";
import { getConfig } from "../../base/config";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import { type Domain, deposits, domains, paymentSessions } from "../../db/schema";
import { notify } from "../notifications/outbox";
import { domainRefusal } from "./reasons";

/** The address new sessions forward to (null: the withdrawal wallet), as SQL over `domains`. */
export function payoutAddressInForce(now: SQL): SQL<string | null> {
  return sql<string | null>`case when ${domains.payoutChangeEffectiveAt} is not null and ${domains.payoutChangeEffectiveAt} <= ${now}
    then ${domains.pendingPayoutAddress} else ${domains.payoutAddress} end`;
}

/** The same rule on a row already read. */
export function payoutInForce(domain: Domain, now = new Date()): string | null {
  return isDue(domain, now) ? domain.pendingPayoutAddress : domain.payoutAddress;
}

/** A change still waiting at `now` (null: none, or it took effect). */
export function pendingPayoutChange(
  domain: Domain,
  now = new Date(),
): { payoutAddress: string | null; requestedAt: string; effectiveAt: string } | null {
  if (!domain.payoutChangeEffectiveAt || isDue(domain, now)) return null;
  return {
    payoutAddress: domain.pendingPayoutAddress,
    requestedAt: (domain.payoutChangeRequestedAt ?? domain.payoutChangeEffectiveAt).toISOString(),
    effectiveAt: domain.payoutChangeEffectiveAt.toISOString(),
  };
}

function isDue(domain: Domain, now: Date): boolean {
  return domain.payoutChangeEffectiveAt !== null && domain.payoutChangeEffectiveAt.getTime() <= now.getTime();
}

const NO_PENDING = {
  pendingPayoutAddress: null,
  payoutChangeRequestedAt: null,
  payoutChangeEffectiveAt: null,
  payoutChangeRequestedBy: null,
} as const;

type PayoutEventStatus = "pending" | "applied" | "cancelled";

function payoutEvent(
  domain: Domain,
  status: PayoutEventStatus,
  data: { payoutAddress: string | null; previousPayoutAddress: string | null; effectiveAt: Date },
) {
  return {
    domainId: domain.id,
    type: "domain.payout_changed" as const,
    orderKey: `domain-payout:${domain.id}`,
    data: {
      domainId: domain.id,
      domain: domain.origin,
      status,
      payoutAddress: data.payoutAddress,
      previousPayoutAddress: data.previousPayoutAddress,
      effectiveAt: data.effectiveAt.toISOString(),
    },
  };
}

/** Locks the domain row and folds a change that fell due, so that what follows starts from the address in force. */
async function lockAndFold(tx: Db, domainId: number, now: Date): Promise<Domain> {
  const domain = requireRow(await tx.select().from(domains).where(eq(domains.id, domainId)).for("update"), `lock of domain ${domainId}`);
  if (!isDue(domain, now)) return domain;
  return applyOne(tx, domain, now);
}

async function applyOne(tx: Db, domain: Domain, now: Date): Promise<Domain> {
  const applied = requireRow(
    await tx
      .update(domains)
      .set({ payoutAddress: domain.pendingPayoutAddress, ...NO_PENDING, updatedAt: now })
      .where(eq(domains.id, domain.id))
      .returning(),
    `payout change of domain ${domain.id}`,
  );
  // biome-ignore lint/style/noNonNullAssertion: applyOne is called only for a due change, whose effective_at is set
  const effectiveAt = domain.payoutChangeEffectiveAt!;
  await notify(
    tx,
    [payoutEvent(domain, "applied", { payoutAddress: applied.payoutAddress, previousPayoutAddress: domain.payoutAddress, effectiveAt })],
    now,
  );
  return applied;
}

/**
 * Has a transfer ever reached a session of this merchant, on any domain (deleted ones included)?
 * Per domain would not do: a fresh domain, whose address would change at once, can take over the
 * merchant's payment links (and, once the paid one is deleted, the sessions without domainId).
 */
async function everPaid(tx: Db, domain: Domain): Promise<boolean> {
  const [paid] = await tx
    .select({ id: deposits.id })
    .from(deposits)
    .innerJoin(paymentSessions, eq(paymentSessions.id, deposits.sessionId))
    .where(eq(paymentSessions.userId, domain.userId))
    .limit(1);
  return paid !== undefined;
}

/**
 * The owner asks for a new payout address (null: back to the withdrawal wallet). Call inside the
 * transaction of the domain's update; the caller checked ownership and the second factor.
 * Answers the domain as it is now (its payout address unchanged while the change waits).
 */
export async function requestPayoutChange(
  tx: Db,
  domainId: number,
  address: string | null,
  userId: number,
  now = new Date(),
): Promise<Domain> {
  const domain = await lockAndFold(tx, domainId, now);
  // The address in force again (a form sends every field) changes nothing, and leaves a waiting
  // change waiting: withdrawing one is the explicit cancel. The same pending address keeps its date.
  if (sameAddress(address, domain.payoutAddress)) return domain;
  if (domain.payoutChangeEffectiveAt && sameAddress(address, domain.pendingPayoutAddress)) return domain;
  const delay = getConfig().payoutChangeDelaySeconds;
  const immediate = delay === 0 || !(await everPaid(tx, domain));
  const effectiveAt = immediate ? now : new Date(now.getTime() + delay * 1000);
  if (immediate) {
    const changed = requireRow(
      await tx
        .update(domains)
        .set({ payoutAddress: address, ...NO_PENDING, updatedAt: now })
        .where(eq(domains.id, domain.id))
        .returning(),
      `payout address of domain ${domain.id}`,
    );
    await notify(
      tx,
      [payoutEvent(domain, "applied", { payoutAddress: address, previousPayoutAddress: domain.payoutAddress, effectiveAt })],
      now,
    );
    return changed;
  }
  const waiting = requireRow(
    await tx
      .update(domains)
      .set({
        pendingPayoutAddress: address,
        payoutChangeRequestedAt: now,
        payoutChangeEffectiveAt: effectiveAt,
        payoutChangeRequestedBy: userId,
        updatedAt: now,
      })
      .where(eq(domains.id, domain.id))
      .returning(),
    `payout change request of domain ${domain.id}`,
  );
  await notify(
    tx,
    [payoutEvent(domain, "pending", { payoutAddress: address, previousPayoutAddress: domain.payoutAddress, effectiveAt })],
    now,
  );
  return waiting;
}

/** The owner withdraws a waiting change (no second factor: cancelling only makes things safer). */
export async function cancelPayoutChange(db: Db, domainId: number, now = new Date()): Promise<Domain> {
  return db.transaction(async (tx) => {
    const domain = await lockAndFold(tx, domainId, now);
    if (!domain.payoutChangeEffectiveAt) {
      throw domainRefusal(
        "VALIDATION_ERROR",
        "payout-change-not-waiting",
        "no payout address change is waiting for this domain (a change takes effect at its date and can no longer be cancelled then)",
      );
    }
    return cancelLocked(tx, domain, now);
  });
}

async function cancelLocked(tx: Db, domain: Domain, now: Date): Promise<Domain> {
  const cancelled = requireRow(
    await tx
      .update(domains)
      .set({ ...NO_PENDING, updatedAt: now })
      .where(eq(domains.id, domain.id))
      .returning(),
    `payout change cancel of domain ${domain.id}`,
  );
  // biome-ignore lint/style/noNonNullAssertion: only called while a change waits
  const effectiveAt = domain.payoutChangeEffectiveAt!;
  await notify(
    tx,
    [
      payoutEvent(domain, "cancelled", {
        payoutAddress: domain.pendingPayoutAddress,
        previousPayoutAddress: domain.payoutAddress,
        effectiveAt,
      }),
    ],
    now,
  );
  return cancelled;
}

/**
 * Folds every due change into payout_address and announces it. Safe on several instances at once:
 * rows are claimed with SKIP LOCKED, and a row already folded no longer matches.
 */
export async function applyDuePayoutChanges(db: Db, now = new Date(), limit = 100): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(domains)
      .where(and(isNotNull(domains.payoutChangeEffectiveAt), lte(domains.payoutChangeEffectiveAt, now)))
      .limit(limit)
      .for("update", { skipLocked: true });
    for (const domain of due) await applyOne(tx, domain, now);
    return due.length;
  });
}

export function sameAddress(a: string | null, b: string | null): boolean {
  return (a ?? "").toLowerCase() === (b ?? "").toLowerCase();
}
