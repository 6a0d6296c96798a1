/**
 * POST /withdrawal/send and the dashboard's send: record (committed, with the request's
 * idempotency record: the API key's Idempotency-Key or the dashboard form's request id), then
 * send. The send is outside the recording transaction on purpose: a transaction must never reach
 * the chain without its record. When the node refuses it, the nonce is filled and the withdrawal
 * stays submitted until the chain settles it; only "nothing was sent" after that settles answers
 * BLOCKCHAIN_ERROR (and frees the Idempotency-Key).
 *
 * Above the account's approval threshold nothing goes to the chain: the withdrawal is recorded
 * `awaiting_approval` (withdrawal-approvals.ts) under the same idempotency record, 201 — decided in
 * the recording transaction, so concurrent requests cannot each pass under the per-day limit.
 */

import { eq } from "drizzle-orm";
import { type AuditOrigin, audit, byApiKey, byMember } from "../../accounts/audit/audit-origin";
import type { Acting } from "../../accounts/members/principal";
import { requireSecondFactor } from "../../accounts/users/two-factor";
import { commonRefusal } from "../../base/errors";
import type { Db } from "../../db";
import { type ApiKey, type RecordedWithdrawal, tokens, withdrawals } from "../../db/schema";
import { type IdempotentRequest, runIdempotent, storedResponse } from "../idempotency/idempotency";
import { lockAccountForMoneyOut } from "../transfers/money-out-locks";
import { sendRecorded, withGasTopUps } from "../transfers/send-transfer";
import { awaitSettlement } from "./confirm-withdrawals";
import { withdrawalRefusal } from "./reasons";
import type { SendWithdrawalInput } from "./schemas";
import { recordWithdrawal, type WithdrawalSender } from "./send-withdrawal";
import { needsApproval, recordAwaitingWithdrawal } from "./withdrawal-approvals";
import { WITHDRAWAL_SCOPE } from "./withdrawal-records";
import { toWithdrawalView, type WithdrawalView } from "./withdrawal-view";

export async function sendWithdrawal(
  db: Db,
  /** `createdBy`: the member behind the key — the request is theirs (docs/design.md §26). */
  apiKey: Pick<ApiKey, "id" | "userId" | "name" | "prefix" | "createdBy">,
  input: SendWithdrawalInput,
  idempotency: { key: string; body: unknown } | null,
  address: string | null = null,
): Promise<{ view: WithdrawalView; replayed: boolean }> {
  const request = idempotency && { owner: { apiKeyId: apiKey.id }, scope: WITHDRAWAL_SCOPE, ...idempotency };
  const sender = { userId: apiKey.userId, apiKeyId: apiKey.id, memberId: apiKey.createdBy ?? undefined };
  return send(db, sender, input, request, byApiKey(apiKey, address));
}

/**
 * The dashboard's send: the form's `requestId` makes a double click (or a resubmitted form) send
 * once — the second request answers with the first withdrawal, as it stands now. With two-factor
 * sign-in on, a current code first (`code`), or nothing is recorded; the same form again needs none.
 */
export async function sendWithdrawalFromDashboard(
  db: Db,
  acting: Acting,
  input: SendWithdrawalInput,
  requestId: string,
  code?: string,
): Promise<{ view: WithdrawalView; replayed: boolean }> {
  const { account, member } = acting;
  // The form's id names one submission, whatever its fields: no body to compare.
  const request: IdempotentRequest = { owner: { userId: account.id }, scope: WITHDRAWAL_SCOPE, key: requestId, body: null };
  const first = await storedResponse<WithdrawalView>(db, request);
  if (first) return { view: await currentView(db, first.body.withdrawalId), replayed: true };
  await requireSecondFactor(db, member, code);
  const { view, replayed } = await send(db, { userId: account.id, apiKeyId: null, memberId: member.id }, input, request, byMember(acting));
  return { view: replayed ? await currentView(db, view.withdrawalId) : view, replayed };
}

async function send(
  db: Db,
  sender: WithdrawalSender,
  input: SendWithdrawalInput,
  idempotent: IdempotentRequest | null,
  origin: AuditOrigin,
): Promise<{ view: WithdrawalView; replayed: boolean }> {
  const audited = (tx: Db, view: WithdrawalView) =>
    audit(tx, origin, {
      action: "withdrawal.requested",
      target: { type: "withdrawal", id: view.withdrawalId },
      after: { amount: view.amount, tokenSymbol: view.token, toAddress: view.toAddress, domainId: view.domainId, status: view.status },
    });
  const answer = await withGasTopUps(db, async (afterTopUp) => {
    let payout: RecordedWithdrawal | undefined;
    // One transaction decides and records: the per-day threshold's lock is held until the row exists.
    const record = async (tx: Db) => {
      await lockAccountForMoneyOut(tx, sender.userId); // first: the one lock order of money out
      if (await needsApproval(tx, sender, input)) {
        const waiting = await recordAwaitingWithdrawal(tx, sender, input);
        const view = toWithdrawalView(waiting.withdrawal, { symbol: waiting.tokenSymbol, decimals: waiting.tokenDecimals });
        await audited(tx, view);
        return { status: 201, body: view };
      }
      const recorded = await recordWithdrawal(tx, sender, input, { afterTopUp });
      payout = recorded.withdrawal;
      const view = toWithdrawalView(recorded.withdrawal, { symbol: recorded.tokenSymbol, decimals: recorded.tokenDecimals });
      await audited(tx, view);
      return { status: 201, body: view };
    };
    const result = idempotent ? await runIdempotent(db, idempotent, record) : { ...(await db.transaction(record)), replayed: false };
    return { view: result.body, payout: result.replayed ? undefined : payout };
  });
  if (answer.payout && (await sendRecorded(db, answer.payout)) === "refused") {
    const settled = await awaitSettlement(db, answer.payout.id);
    if (settled?.status === "failed") {
      throw withdrawalRefusal(
        "BLOCKCHAIN_ERROR",
        "withdrawal-failed",
        `${settled.failureReason ?? "the network refused the transaction"} (withdrawal ${answer.payout.id} failed)`,
      );
    }
  }
  return { view: answer.view, replayed: !answer.payout };
}

async function currentView(db: Db, withdrawalId: string): Promise<WithdrawalView> {
  const [row] = await db
    .select({ withdrawal: withdrawals, token: { symbol: tokens.symbol, decimals: tokens.decimals } })
    .from(withdrawals)
    .innerJoin(tokens, eq(tokens.id, withdrawals.tokenId))
    .where(eq(withdrawals.id, withdrawalId));
  if (!row) throw commonRefusal("NOT_FOUND", "not-found", "withdrawal not found");
  return toWithdrawalView(row.withdrawal, row.token);
}
