/**
 * The account's approval thresholds per token (docs/design.md §24): read by anyone who may see the
 * account, set by the owner (`payout-targets`) with their two-factor code when it is on.
 */

import { and, asc, eq } from "drizzle-orm";
import { audit, byMember } from "../../accounts/audit/audit-origin";
import { type Principal, requirePermission } from "../../accounts/members/principal";
import { requireSecondFactor } from "../../accounts/users/two-factor";
import { commonRefusal } from "../../base/errors";
import { formatAmount, parseAmount } from "../../base/money";
import type { Db } from "../../db";
import { approvalPolicies, tokens } from "../../db/schema";
import { amountRefusal } from "../payments/reasons";
import { findOwnToken } from "../tokens/find-own-token";
import { approvalRefusal } from "./reasons";

export interface ApprovalPolicyView {
  tokenId: number;
  token: string;
  network: string;
  /** In the token's units ("1000"); null: no limit. */
  perRequest: string | null;
  perDay: string | null;
  updatedAt: string | null;
}

/** Every token of the account with its thresholds (both null: nothing needs approval). */
export async function getApprovalPolicies(db: Db, accountId: number): Promise<ApprovalPolicyView[]> {
  const rows = await db
    .select({ token: tokens, policy: approvalPolicies })
    .from(tokens)
    .leftJoin(approvalPolicies, and(eq(approvalPolicies.tokenId, tokens.id), eq(approvalPolicies.accountId, accountId)))
    .where(eq(tokens.userId, accountId))
    .orderBy(asc(tokens.id));
  return rows.map(({ token, policy }) => ({
    tokenId: token.id,
    token: token.symbol,
    network: token.network,
    perRequest: policy?.perRequestLimit != null ? formatAmount(policy.perRequestLimit, token.decimals) : null,
    perDay: policy?.perDayLimit != null ? formatAmount(policy.perDayLimit, token.decimals) : null,
    updatedAt: policy?.updatedAt.toISOString() ?? null,
  }));
}

/**
 * Sets both thresholds of one token (null: no limit of that kind). An amount that is not one of
 * the token's, or a per-day limit below the per-request one, is a VALIDATION_ERROR; nothing changes.
 */
export async function setApprovalPolicy(
  db: Db,
  principal: Principal,
  tokenId: number,
  limits: { perRequest: string | null; perDay: string | null },
  code?: string,
): Promise<ApprovalPolicyView> {
  requirePermission(principal, "payout-targets");
  const token = await findOwnToken(db, principal.account.id, tokenId);
  if (!token) throw commonRefusal("NOT_FOUND", "not-found", `token ${tokenId} not found`);
  const units = (field: "perRequest" | "perDay") => {
    const text = limits[field];
    if (text === null) return null;
    const parsed = parseAmount(text, token.decimals);
    if (typeof parsed === "string") throw amountRefusal(field, parsed, token.decimals);
    return parsed;
  };
  const perRequestLimit = units("perRequest");
  const perDayLimit = units("perDay");
  if (perRequestLimit !== null && perDayLimit !== null && perDayLimit < perRequestLimit)
    throw approvalRefusal("VALIDATION_ERROR", "approval-limit-invalid", "the per-day limit cannot be below the per-request limit", [
      { path: "perDay", message: "must be at least perRequest" },
    ]);
  await requireSecondFactor(db, principal.member, code);
  const now = new Date();
  const values = { perRequestLimit, perDayLimit, updatedBy: principal.member.id, updatedAt: now };
  const before = (await getApprovalPolicies(db, principal.account.id)).find((p) => p.tokenId === tokenId);
  await db.transaction(async (tx) => {
    await tx
      .insert(approvalPolicies)
      .values({ accountId: principal.account.id, tokenId, ...values })
      .onConflictDoUpdate({ target: [approvalPolicies.accountId, approvalPolicies.tokenId], set: values });
    await audit(tx, byMember(principal), {
      action: "approval_policy.changed",
      target: { type: "token", id: tokenId },
      before: { perRequest: before?.perRequest ?? null, perDay: before?.perDay ?? null },
      after: { perRequest: limits.perRequest, perDay: limits.perDay },
    });
  });
  const [view] = (await getApprovalPolicies(db, principal.account.id)).filter((p) => p.tokenId === tokenId);
  // biome-ignore lint/style/noNonNullAssertion: the token is the account's (found above), so its row is listed
  return view!;
}
