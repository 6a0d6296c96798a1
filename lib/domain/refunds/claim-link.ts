/**
 * A new claim link for a refund still waiting for its payer's address (docs/design.md §26: links that
 * move money carry a secret given only to the person who made them). A link is a claim: whoever
 * holds it chooses where the money goes. So only the member who created the refund may issue one
 * — on the dashboard (the `money` permission, and their two-factor code when it is on, as for
 * creating the refund) or with any API key they created (the `refunds` scope). A member who did not
 * create it cancels it and creates a new refund instead.
 *
 * The new secret's hash replaces the old one by compare-and-set on `awaiting_address`
 * (refund-records.ts), which voids the old link; the claim's deadline stays. Audited
 * (`refund.claim_link_issued`, never the secret). The answer is the one place the new link appears.
 */

import { and, eq } from "drizzle-orm";
import { type AuditOrigin, audit, byApiKey, byMember } from "../../accounts/audit/audit-origin";
import type { Acting } from "../../accounts/members/principal";
import { requireSecondFactor } from "../../accounts/users/two-factor";
import type { Db } from "../../db";
import { type ApiKey, approvals, type Refund } from "../../db/schema";
import { newClaimSecret } from "./claim-secret";
import { findRefund } from "./find-refund";
import { refundRefusal } from "./reasons";
import { replaceClaimSecret } from "./refund-records";
import { type RefundView, toRefundView, withClaimUrl } from "./refund-view";

/** Who asks for the new link: an API key (its creator is the person), or a member on the dashboard with their code. */
export type LinkIssuer =
  | { apiKey: Pick<ApiKey, "id" | "userId" | "name" | "prefix"> & { createdBy: number }; address: string | null }
  | { acting: Acting; code: string | undefined };

export async function issueClaimLink(db: Db, issuer: LinkIssuer, refundId: string): Promise<RefundView> {
  const { refund, origin } = await refundOfCreator(db, issuer, refundId);
  if ("acting" in issuer) await requireSecondFactor(db, issuer.acting.member, issuer.code);
  await assertLinkable(db, refund);
  const { secret, hash } = newClaimSecret();
  const written = await db.transaction(async (tx) => {
    const replaced = await replaceClaimSecret(tx, refund.id, hash);
    if (replaced)
      await audit(tx, origin, {
        action: "refund.claim_link_issued",
        target: { type: "refund", id: refund.id },
        after: { sessionId: refund.sessionId, claimExpiresAt: replaced.claimExpiresAt.toISOString() },
      });
    return replaced;
  });
  const after = await findRefund(db, { userId: refund.userId }, refund.id);
  // Claimed, cancelled or expired meanwhile: no link, nothing changed.
  if (!written) throw notLinkable(after.refund.status);
  return withClaimUrl(toRefundView(after), secret);
}

/**
 * The refund, when the issuer is its creator. Another account's refund, or one an API key cannot
 * see, is NOT_FOUND; one the issuer sees but did not create is FORBIDDEN, saying who may.
 */
async function refundOfCreator(db: Db, issuer: LinkIssuer, refundId: string): Promise<{ refund: Refund; origin: AuditOrigin }> {
  if ("acting" in issuer) {
    const { acting } = issuer;
    const { refund } = await findRefund(db, { userId: acting.account.id }, refundId);
    if (refund.createdBy !== acting.member.id) throw notCreator();
    return { refund, origin: byMember(acting) };
  }
  const { apiKey } = issuer;
  const { refund } = await findRefund(db, { userId: apiKey.userId }, refundId);
  if (refund.createdBy === apiKey.createdBy) return { refund, origin: byApiKey(apiKey, issuer.address) };
  // Seen by this key (its own refund or its payment's) but another member's: say so; else it does not exist for the key.
  await findRefund(db, { apiKeyId: apiKey.id }, refundId);
  throw notCreator();
}

/** Only a refund waiting for its payer's address gets a link, and not one approved before destinations were. */
async function assertLinkable(db: Db, refund: Refund): Promise<void> {
  if (refund.status !== "awaiting_address") throw notLinkable(refund.status);
  if (refund.approvalOnClaim) return;
  const [approved] = await db
    .select({ id: approvals.id })
    .from(approvals)
    .where(and(eq(approvals.kind, "refund"), eq(approvals.subjectId, refund.id)));
  if (approved)
    throw refundRefusal(
      "VALIDATION_ERROR",
      "refund-approval-without-address",
      "this refund was approved before refunds were approved with their destination, so a new link would send it unapproved: cancel it and create it again",
    );
}

function notCreator() {
  return refundRefusal(
    "FORBIDDEN",
    "refund-link-not-creator",
    "only the member who created this refund (on the dashboard, or with one of their API keys) can issue its claim link; cancel it and create a new refund instead",
  );
}

function notLinkable(status: string) {
  return refundRefusal(
    "VALIDATION_ERROR",
    "refund-link-unavailable",
    `this refund is ${status.replace("_", " ")}; a claim link is issued only while it waits for the payer's address`,
  );
}
