/**
 * Payouts from the dashboard (docs/design.md §24): the merchant uploads a CSV, the
 * review checks every row with the API's own validation (validate-batch.ts) and records nothing,
 * bad rows named by their line in the file; the merchant may drop them (`skipLines`) and review
 * again. The send checks the same way, then records the batch with the audit row in one
 * transaction — once per form `requestId`, so a double click sends once — and starts sending,
 * as POST /api/v1/payouts does after recording; above the account's approval thresholds it waits
 * `awaiting_approval` for a second member instead.
 */

import { z } from "zod";
import { audit, byMember } from "../../accounts/audit/audit-origin";
import { type Principal, requirePermission } from "../../accounts/members/principal";
import { requireSecondFactor } from "../../accounts/users/two-factor";
import type { ErrorDetail } from "../../base/errors";
import { log } from "../../base/log";
import { formatAmount } from "../../base/money";
import { positiveIntSchema } from "../../base/validation";
import type { Db } from "../../db";
import { MAX_PAYOUT_ITEMS } from "../../engine/chain/batch-payer";
import { errorText } from "../../engine/chain/rpc-errors";
import { type IdempotentRequest, runIdempotent, storedResponse } from "../idempotency/idempotency";
import { PAYOUT_SCOPE } from "./create-payouts";
import { PAYOUT_CSV_MAX_CHARS, parsePayoutCsv } from "./payout-csv";
import { getPayoutBatch, type PayoutBatchView } from "./payout-view";
import { payoutBatchRefusal } from "./reasons";
import { recordCheckedBatch } from "./record-batch";
import { type CreatePayoutsInput, payoutItemSchema } from "./schemas";
import { sendPayoutBatch } from "./send-batch";
import { checkPayoutBatch } from "./validate-batch";

export const dashboardPayoutSchema = z.object({
  domainId: positiveIntSchema("domainId"),
  tokenId: positiveIntSchema("tokenId"),
  csv: z
    .string({ error: "csv must be text" })
    .max(PAYOUT_CSV_MAX_CHARS, { error: `the file is too long (at most ${PAYOUT_CSV_MAX_CHARS} characters)` }),
  /** Lines the merchant dropped after a review: left out of the batch. */
  skipLines: z.array(z.number().int().positive()).max(100_000).default([]),
});
export type DashboardPayoutInput = z.input<typeof dashboardPayoutSchema>;

export interface PayoutReviewRow {
  line: number;
  toAddress: string;
  amount: string;
  reference: string | null;
}

export interface PayoutReviewProblem {
  line: number;
  address: string;
  amount: string;
  reference: string;
  problems: string[];
}

export interface PayoutReview {
  domainId: number;
  tokenId: number;
  token: string;
  /** The valid rows' count and total (token units), what "Send" would pay. */
  count: number;
  total: string;
  rows: PayoutReviewRow[];
  bad: PayoutReviewProblem[];
  /** The lines left out as asked. */
  skipped: number[];
}

/** Who sends from the dashboard: a member of the account, whose role must hold `money`. */
export type PayoutSender = Pick<Principal, "account" | "member" | "role"> & { address?: string | null };

/**
 * Checks the file against the API's rules and records nothing. FORBIDDEN unless the role may send
 * money; a domain or token that is not the account's throws.
 */
export async function reviewPayoutCsv(
  db: Db,
  sender: Pick<PayoutSender, "account" | "role">,
  raw: DashboardPayoutInput,
): Promise<PayoutReview> {
  requirePermission(sender, "money");
  return (await checkPayoutCsv(db, sender.account.id, raw)).review;
}

async function checkPayoutCsv(db: Db, accountId: number, raw: DashboardPayoutInput) {
  const input = dashboardPayoutSchema.parse(raw);
  const skip = new Set(input.skipLines);
  const parsed = parsePayoutCsv(input.csv);
  const kept = parsed.filter((row) => !skip.has(row.line));
  if (kept.length === 0)
    throw payoutBatchRefusal(
      "VALIDATION_ERROR",
      "payout-items-invalid",
      "the file holds no rows: one recipient a line, address,amount,reference",
      [{ path: "csv", message: "holds no rows" }],
    );
  if (kept.length > MAX_PAYOUT_ITEMS)
    throw payoutBatchRefusal(
      "VALIDATION_ERROR",
      "payout-items-invalid",
      `the file holds ${kept.length} rows; a batch pays at most ${MAX_PAYOUT_ITEMS} recipients (split it in several files)`,
      [{ path: "csv", message: `holds more than ${MAX_PAYOUT_ITEMS} rows` }],
    );

  const problems = new Map<number, string[]>();
  const note = (line: number, problem: string) => problems.set(line, [...(problems.get(line) ?? []), problem]);
  // The API's item schema first (address format and checksum, amount format, reference length)…
  const candidates: { line: number; item: CreatePayoutsInput["items"][number] }[] = [];
  for (const row of kept) {
    if (row.problem) {
      note(row.line, row.problem);
      continue;
    }
    const item = payoutItemSchema.safeParse({ toAddress: row.address, amount: row.amount, reference: row.reference || undefined });
    if (item.success) candidates.push({ line: row.line, item: item.data });
    else for (const issue of item.error.issues) note(row.line, columnWords(issue.message));
  }
  // …then the batch's own checks (the token's decimals and minimum, the gateway's addresses).
  const batchInput: CreatePayoutsInput = { domainId: input.domainId, tokenId: input.tokenId, items: candidates.map((c) => c.item) };
  const checked = await checkPayoutBatch(db, accountId, batchInput);
  for (const detail of checked.details) {
    const [, index, field] = detail.path?.split(".") ?? [];
    const candidate = candidates[Number(index)];
    if (candidate) note(candidate.line, `${field === "toAddress" ? "address" : field} ${detail.message}`);
  }
  // An item's position is its index in `candidates`.
  const lineOf = (item: { position: number }) => candidates[item.position]?.line ?? 0;
  const valid = checked.items.filter((item) => !problems.has(lineOf(item)));
  const rows = valid.map((item) => ({
    line: lineOf(item),
    toAddress: item.toAddress,
    amount: formatAmount(item.amount, checked.token.decimals),
    reference: item.reference,
  }));
  const bad = kept
    .filter((row) => problems.has(row.line))
    .map((row) => ({
      line: row.line,
      address: row.address,
      amount: row.amount,
      reference: row.reference,
      problems: problems.get(row.line) ?? [],
    }));
  const review: PayoutReview = {
    domainId: input.domainId,
    tokenId: input.tokenId,
    token: checked.token.symbol,
    count: rows.length,
    total: formatAmount(
      valid.reduce((sum, item) => sum + item.amount, 0n),
      checked.token.decimals,
    ),
    rows,
    bad,
    skipped: parsed.filter((row) => skip.has(row.line)).map((row) => row.line),
  };
  // With no bad row left (what the send requires), every candidate is valid: `checked` is the batch.
  return { review, checked };
}

/** "toAddress must be…" as the file names its column: "address must be…". */
function columnWords(message: string): string {
  return message.replace(/^toAddress\b/, "address");
}

/**
 * Sends the reviewed file (FORBIDDEN unless the role may send money): with two-factor on, a current code first, or nothing is recorded. Any bad
 * row left is VALIDATION_ERROR naming its line (details `lines.<line>`), nothing recorded. The same
 * `requestId` again answers with the batch it recorded, as it stands now.
 */
export async function sendPayoutsFromDashboard(
  db: Db,
  acting: PayoutSender,
  raw: DashboardPayoutInput,
  requestId: string,
  code?: string,
): Promise<{ view: PayoutBatchView; replayed: boolean }> {
  requirePermission(acting, "money");
  const { account, member } = acting;
  const owner = { userId: account.id };
  // The form's id names one submission, whatever its rows: no body to compare.
  const request: IdempotentRequest = { owner, scope: PAYOUT_SCOPE, key: requestId, body: null };
  const first = await storedResponse<{ batchId: string }>(db, request);
  if (first) return { view: await getPayoutBatch(db, owner, first.body.batchId), replayed: true };
  await requireSecondFactor(db, member, code);
  const { review, checked } = await checkPayoutCsv(db, account.id, raw);
  if (review.bad.length > 0) {
    const details: ErrorDetail[] = review.bad.map((b) => ({ path: `lines.${b.line}`, message: b.problems.join("; ") }));
    const [firstBad] = review.bad;
    throw payoutBatchRefusal(
      "VALIDATION_ERROR",
      "payout-items-invalid",
      `${review.bad.length} rows are invalid (first: line ${firstBad?.line} ${firstBad?.problems[0]}); nothing was recorded`,
      details,
    );
  }
  const requester = { accountId: account.id, apiKeyId: null, requestedBy: member.id };
  const result = await runIdempotent(db, request, async (tx) => {
    // Above the account's approval thresholds the batch waits for a second member (its approval
    // request recorded with it); the approval then releases and sends it (payout-approvals.ts).
    // Checked once, above: the review's result is recorded as it stands, not checked again.
    const batch = await recordCheckedBatch(tx, requester, checked, { awaitingApproval: false, approvalsApply: true });
    await audit(tx, byMember(acting), {
      action: "payout.requested",
      target: { type: "payout_batch", id: batch.id },
      // As the API's createPayouts records it.
      after: { itemCount: batch.itemCount, total: batch.total.toString(), tokenId: batch.tokenId, status: batch.status },
    });
    return { status: 201, body: { batchId: batch.id, status: batch.status } };
  });
  if (!result.replayed && result.body.status !== "awaiting_approval") {
    try {
      await sendPayoutBatch(db, result.body.batchId);
    } catch (error) {
      // Recorded: the tend-ledger job sends what is left. The page shows the batch as it stands.
      log.warn({ batchId: result.body.batchId, err: errorText(error) }, "payout batch recorded; sending continues in the background");
    }
  }
  return { view: await getPayoutBatch(db, owner, result.body.batchId), replayed: result.replayed };
}
