/**
 * Approvals of money out and the thresholds that ask for them (docs/design.md §24) in the OpenAPI
 * document. Schemas checked against lib's views as in member-paths.ts.
 */

import { z } from "zod";
import { APPROVAL_KINDS, APPROVAL_STATUSES } from "../../db/schema";
import type { ApprovalPolicyView } from "../../domain/approval-requests/policies";
import type { Decided } from "../../domain/approvals/decide";
import type { ApprovalView } from "../../domain/approvals/inbox";
import { approvalPolicySchema, approvalsQuerySchema, approveSchema, rejectSchema } from "../../domain/approvals/schemas";
import type { SubjectOutcome } from "../../domain/approvals/subjects";
import { EX } from "./examples";
import { answer, json, member, memberRefusals, type Problems } from "./shared";
import { tagged } from "./tags";

/** What the money does (the same fields in the approval.* webhooks). */
export const approvalContentShape = {
  toAddress: z.string().nullable().meta({
    description: "Where a withdrawal or refund goes; null for a refund that waits for the payer's claim, and for a payout batch.",
  }),
  payment: z
    .object({ sessionId: z.string(), orderId: z.string().nullable() })
    .nullable()
    .meta({ description: "A refund's payment: its session and the shop's order id." }),
  items: z
    .object({
      count: z.number().int(),
      first: z.array(z.object({ index: z.number().int(), toAddress: z.string(), amount: z.string(), reference: z.string().nullable() })),
    })
    .nullable()
    .meta({ description: "A payout batch: how many items, and the first five (the batch's page lists them all)." }),
  contentHash: z.string().nullable().meta({
    description:
      "SHA-256 of what the money does as it was asked for (wallet, token, amount, destination or every payout item). Send it with the approval: the code approves exactly that content, and a subject that changed since is refused (approval-content-changed).",
  }),
};

const approvalSchema = z
  .object({
    approvalId: z.string().meta({ description: "apr_ + 24 hex characters." }),
    kind: z.enum(APPROVAL_KINDS),
    subjectId: z.string().meta({ description: "The id of the withdrawal, refund or payout batch waiting for it." }),
    amount: z.string(),
    token: z.string(),
    tokenId: z.number().int(),
    status: z.enum(APPROVAL_STATUSES),
    requestedBy: z
      .object({
        userId: z.number().int().nullable(),
        email: z.string().nullable(),
        apiKey: z.object({ id: z.number().int(), name: z.string() }).nullable(),
      })
      .nullable()
      .meta({
        description:
          "Who asked: the member — for a request made with an API key, the key's creator (who cannot approve it either) — and the key, if one was used.",
      }),
    ...approvalContentShape,
    decidedBy: z.object({ userId: z.number().int(), email: z.string() }).nullable(),
    decidedAt: z.string().nullable(),
    reason: z.string().nullable(),
    expiresAt: z.string().meta({ description: "72 h after it was asked for: then it expires, and its money out is rejected." }),
    createdAt: z.string(),
  })
  .meta({ id: "Approval" }) satisfies z.ZodType<ApprovalView>;

const decidedSchema = z.object({
  approval: approvalSchema,
  subject: z
    .object({ status: z.string(), reason: z.string().nullable() })
    .meta({ description: "Where its withdrawal, refund or payout stands now (submitted; failed, with why; rejected…)." }),
}) satisfies z.ZodType<Decided>;

const policySchema = z
  .object({
    tokenId: z.number().int(),
    token: z.string(),
    network: z.string(),
    perRequest: z
      .string()
      .nullable()
      .meta({ description: "Money out above this amount (token units) waits for approval; null: no limit." }),
    perDay: z.string().nullable().meta({ description: "Money out beyond this total per UTC day waits for approval; null: no limit." }),
    updatedAt: z.string().nullable(),
  })
  .meta({ id: "ApprovalPolicy" }) satisfies z.ZodType<ApprovalPolicyView>;

const waiting = {
  approvalId: EX.approvalId,
  kind: "withdrawal",
  subjectId: EX.withdrawalId,
  amount: "2500",
  token: "USDT",
  tokenId: 1,
  status: "awaiting_approval",
  requestedBy: { userId: 12, email: "finance@shop.example.com", apiKey: null },
  toAddress: "0x1111111111111111111111111111111111111111",
  payment: null,
  items: null,
  contentHash: "9f2c4e1a7b3d5c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6",
  decidedBy: null,
  decidedAt: null,
  reason: null,
  expiresAt: "2026-12-01T09:12:30.000Z",
  createdAt: EX.later,
} satisfies ApprovalView;
const decidedAt = "2026-11-28T10:02:14.000Z";
const approved = {
  approval: { ...waiting, status: "approved", decidedBy: { userId: 7, email: "owner@shop.example.com" }, decidedAt },
  subject: { status: "submitted", reason: null } satisfies SubjectOutcome,
} satisfies Decided;
const policy = {
  tokenId: 1,
  token: "USDT",
  network: "bsc",
  perRequest: "1000",
  perDay: "5000",
  updatedAt: EX.later,
} satisfies ApprovalPolicyView;

const approvalIdParam = {
  path: z.object({ id: z.string().meta({ description: "The approval's id (apr_ + 24 hex characters).", example: EX.approvalId }) }),
};
const approvalNotFound: Problems = { NOT_FOUND: { message: "approval not found", reason: "not-found" } };
const CODE = ["two-factor-code-required", "two-factor-code-wrong", "rate-limited"] as const;
const tooManyCodes: Problems = {
  RATE_LIMITED: { message: "too many failed sign-ins for this account; retry in 600 s", reason: "rate-limited" },
};

export const approvalPaths = {
  "/api/user/approvals": {
    get: {
      ...member("read"),
      ...tagged("Approvals"),
      operationId: "listApprovals",
      summary: "List approvals",
      description: "The account's approvals of money out, newest first, by cursor (20 a page).",
      requestParams: { query: approvalsQuerySchema },
      responses: {
        "200": answer("{items, nextCursor}", z.object({ items: z.array(approvalSchema), nextCursor: z.string().nullable() }), {
          items: [waiting],
          nextCursor: null,
        }),
        ...memberRefusals("read", ["invalid-request"], [], {
          VALIDATION_ERROR: {
            message: "status: status must be one of awaiting_approval, approved, rejected, expired",
            reason: "invalid-request",
            details: [{ path: "status", message: "status must be one of awaiting_approval, approved, rejected, expired" }],
          },
        }),
      },
    },
  },
  "/api/user/approvals/{id}/approve": {
    post: {
      ...member("approve"),
      ...tagged("Approvals"),
      operationId: "approveApproval",
      summary: "Approve money out",
      description:
        "Approves money out another member (or an API key) asked for; it is sent at once. Never the member who asked for it, nor the creator of the API key it was asked with. Send the `contentHash` you were shown: your code approves exactly that content (destination, amount, items), and a subject changed since it was asked for is refused (400 approval-content-changed). Confirmed with your current two-factor code: without two-factor on you cannot approve (403 approver-needs-two-factor). Decided or expired already → 400, nothing sent. When the money out itself is refused at this point (the wallet short of tokens or gas, a daily limit), the approval still counts and `subject` says failed, with why.",
      requestParams: approvalIdParam,
      requestBody: json(approveSchema, {
        approve: { code: "492031", contentHash: "9f2c4e1a7b3d5c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6" },
      }),
      responses: {
        "200": answer("{approval, subject}", decidedSchema, approved),
        ...memberRefusals(
          "approve",
          [
            "invalid-request",
            "not-found",
            "approver-is-requester",
            "approver-needs-two-factor",
            "approval-decided",
            "approval-expired",
            "approval-content-changed",
            "approval-kind-unsupported",
            ...CODE,
          ],
          ["NOT_FOUND", "RATE_LIMITED"],
          {
            VALIDATION_ERROR: { message: "it is approved already", reason: "approval-decided" },
            FORBIDDEN: { message: "you asked for it: a second member must approve it", reason: "approver-is-requester" },
            ...tooManyCodes,
            ...approvalNotFound,
          },
        ),
      },
    },
  },
  "/api/user/approvals/{id}/reject": {
    post: {
      ...member("approve"),
      ...tagged("Approvals"),
      operationId: "rejectApproval",
      summary: "Reject money out",
      description: "It is never sent (the member who asked may withdraw their own this way).",
      requestParams: approvalIdParam,
      requestBody: json(rejectSchema, { reject: { reason: "wrong recipient address; ask again with the new one" } }),
      responses: {
        "200": answer("{approval, subject}", decidedSchema, {
          approval: {
            ...waiting,
            status: "rejected",
            decidedBy: { userId: 7, email: "owner@shop.example.com" },
            decidedAt,
            reason: "wrong recipient address; ask again with the new one",
          },
          subject: { status: "rejected", reason: "rejected: wrong recipient address; ask again with the new one" },
        } satisfies Decided),
        ...memberRefusals("approve", ["invalid-request", "not-found", "approval-decided", "approval-kind-unsupported"], ["NOT_FOUND"], {
          VALIDATION_ERROR: { message: "it is rejected already", reason: "approval-decided" },
          ...approvalNotFound,
        }),
      },
    },
  },
  "/api/user/approval-policies": {
    get: {
      ...member("read"),
      ...tagged("Approvals"),
      operationId: "listApprovalPolicies",
      summary: "List approval thresholds",
      description: "Every token's approval thresholds (both null: its money out never waits for approval).",
      responses: {
        "200": answer("{items}", z.object({ items: z.array(policySchema) }), {
          items: [policy, { tokenId: 2, token: "USDC", network: "bsc", perRequest: null, perDay: null, updatedAt: null }],
        }),
        ...memberRefusals("read", [], []),
      },
    },
  },
  "/api/user/approval-policies/{tokenId}": {
    put: {
      ...member("payout-targets"),
      ...tagged("Approvals"),
      operationId: "setApprovalPolicy",
      summary: "Set a token's approval thresholds",
      description:
        "Sets both approval thresholds of one token (null: no limit of that kind). Owner only. With two-factor sign-in on, `code` is the current code (missing or wrong → 400 on the field `code`, nothing changes). A per-day limit below the per-request one, or an amount the token cannot hold, → 400, nothing changes.",
      requestParams: {
        path: z.object({ tokenId: z.string().meta({ description: "Id of the token (GET /api/user/tokens).", example: "1" }) }),
      },
      requestBody: json(approvalPolicySchema, {
        limits: { perRequest: "1000", perDay: "5000", code: "492031" },
        noLimits: { perRequest: null, perDay: null, code: "492031" },
      }),
      responses: {
        "200": answer("The token's thresholds", policySchema, policy),
        ...memberRefusals(
          "payout-targets",
          [
            "invalid-request",
            "not-found",
            "approval-limit-invalid",
            "amount-malformed",
            "amount-zero",
            "amount-too-precise",
            "amount-too-large",
            ...CODE,
          ],
          ["NOT_FOUND", "RATE_LIMITED"],
          {
            VALIDATION_ERROR: {
              message: "the per-day limit cannot be below the per-request limit",
              reason: "approval-limit-invalid",
              details: [{ path: "perDay", message: "must be at least perRequest" }],
            },
            NOT_FOUND: { message: "token 1 not found", reason: "not-found" },
            ...tooManyCodes,
          },
        ),
      },
    },
  },
};
