/**
 * An account's members and invitations, and the accounts a user belongs to (docs/design.md §24), in the
 * OpenAPI document. The answers' schemas are checked against the views lib returns (`satisfies
 * z.ZodType<View>`: a field the view has and the schema lacks fails to compile) and the examples
 * against both (typed as the view; the test parses each with the schema).
 */

import { z } from "zod";
import {
  acceptInvitationSchema,
  createInvitationSchema,
  INVITATION_TTL_MS,
  type InvitationView,
  MAX_PENDING_INVITATIONS,
} from "../../accounts/members/invitations";
import { type AccountChoice, changeRoleSchema, type MemberView, transferOwnershipSchema } from "../../accounts/members/manage-members";
import { MEMBER_ROLES } from "../../db/schema";
import { EX } from "./examples";
import { answer, badId, idParam, json, member, memberRefusals, type Problems, user, userRefusals } from "./shared";
import { tagged } from "./tags";

const ASSIGNABLE = MEMBER_ROLES.filter((r) => r !== "owner") as ["admin", "finance", "developer", "viewer"];

const memberSchema = z
  .object({
    userId: z.number().int(),
    email: z.string(),
    role: z.enum(MEMBER_ROLES),
    twoFactor: z.boolean().meta({ description: "Whether the member signs in with a second factor (a new owner must)." }),
    joinedAt: z.string(),
  })
  .meta({ id: "Member" }) satisfies z.ZodType<MemberView>;

const invitationSchema = z
  .object({
    invitationId: z.number().int(),
    role: z.enum(ASSIGNABLE),
    note: z.string().nullable(),
    status: z.enum(["pending", "accepted", "revoked", "expired"]),
    expiresAt: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: "Invitation" }) satisfies z.ZodType<InvitationView>;

const accountSchema = z
  .object({
    accountId: z.number().int().meta({ description: "Send it as X-Account-Id to act in this account." }),
    label: z.string().meta({ description: "The e-mail the account was opened with." }),
    role: z.enum(MEMBER_ROLES),
  })
  .meta({ id: "AccountMembership" }) satisfies z.ZodType<AccountChoice>;

const owner = {
  userId: 7,
  email: "owner@shop.example.com",
  role: "owner",
  twoFactor: true,
  joinedAt: "2026-11-02T10:00:00.000Z",
} satisfies MemberView;
const finance = {
  userId: 12,
  email: "finance@shop.example.com",
  role: "finance",
  twoFactor: true,
  joinedAt: EX.createdAt,
} satisfies MemberView;
const invitation = {
  invitationId: 5,
  role: "developer",
  note: "for Sam, the new backend developer",
  status: "pending",
  expiresAt: new Date(Date.parse(EX.later) + INVITATION_TTL_MS).toISOString(),
  createdAt: EX.later,
} satisfies InvitationView;
const invitationToken = "Jq3Xo9vR5u0cW1aBd2hhdGV2ZXI5mO2v";

const userIdParam = {
  path: z.object({ userId: z.string().meta({ description: "The member's user id.", example: String(finance.userId) }) }),
};
const memberNotFound: Problems = { NOT_FOUND: { message: "user 12 is not a member of this account", reason: "member-not-found" } };
const MEMBER_CHANGE = ["invalid-request", "member-not-found", "owner-is-fixed"] as const;

export const memberPaths = {
  "/api/user/accounts": {
    get: {
      ...user,
      ...tagged("Members"),
      operationId: "listAccounts",
      summary: "List your accounts",
      description: "The accounts you belong to, your own first (the default when a request sends no X-Account-Id).",
      responses: {
        "200": answer("{items}", z.object({ items: z.array(accountSchema) }), {
          items: [
            { accountId: 7, label: "owner@shop.example.com", role: "owner" },
            { accountId: 31, label: "billing@other-shop.example.com", role: "finance" },
          ] satisfies AccountChoice[],
        }),
        ...userRefusals([], ["UNAUTHORIZED"]),
      },
    },
  },
  "/api/user/members": {
    get: {
      ...member("read"),
      ...tagged("Members"),
      operationId: "listMembers",
      summary: "List members",
      description: "The account's members and their roles, in the order they joined.",
      responses: {
        "200": answer("{items}", z.object({ items: z.array(memberSchema) }), { items: [owner, finance] }),
        ...memberRefusals("read", [], []),
      },
    },
  },
  "/api/user/members/{userId}": {
    patch: {
      ...member("members"),
      ...tagged("Members"),
      operationId: "changeMemberRole",
      summary: "Change a member's role",
      description:
        "Gives a member another role (the owner's own role is handed over, never changed). The API keys the member made lose at once the scopes the new role does not hold (audited as api_key.scopes_reduced; a key left with none is revoked, reason role-reduced). A larger role gives no key anything back.",
      requestParams: userIdParam,
      requestBody: json(changeRoleSchema, { toAdmin: { role: "admin" } }),
      responses: {
        "200": answer("The member with the new role", memberSchema, { ...finance, role: "admin" }),
        ...memberRefusals("members", MEMBER_CHANGE, ["NOT_FOUND"], {
          VALIDATION_ERROR: {
            message: "the owner's role does not change: hand the ownership over first",
            reason: "owner-is-fixed",
          },
          ...memberNotFound,
        }),
      },
    },
    delete: {
      ...member("members"),
      ...tagged("Members"),
      operationId: "removeMember",
      summary: "Remove a member",
      description:
        "Removes a member from the account at once (never the owner). Every API key the member made in the account is revoked with them (revokedReason member-removed; on this instance no request with one succeeds after the answer, on others within 1 s) and so is every open invitation they made; each is in the audit log.",
      requestParams: userIdParam,
      responses: {
        "200": answer(
          "{userId, role, apiKeysRevoked, invitationsRevoked}: who left, with the role they had, and how many of the API keys and open invitations they made in the account were revoked with them",
          z.object({
            userId: z.number().int(),
            role: z.enum(MEMBER_ROLES),
            apiKeysRevoked: z.number().int(),
            invitationsRevoked: z.number().int(),
          }),
          {
            userId: finance.userId,
            role: finance.role,
            apiKeysRevoked: 2,
            invitationsRevoked: 0,
          },
        ),
        ...memberRefusals("members", MEMBER_CHANGE, ["NOT_FOUND"], {
          VALIDATION_ERROR: { message: "the owner cannot be removed: hand the ownership over first", reason: "owner-is-fixed" },
          ...memberNotFound,
        }),
      },
    },
  },
  "/api/user/members/transfer-ownership": {
    post: {
      ...member("members"),
      ...tagged("Members"),
      operationId: "transferOwnership",
      summary: "Transfer ownership",
      description:
        "Hands the account to another member; you stay, as admin. Only the owner may. The new owner must have two-factor sign-in on; `code` is the owner's current code when the owner has it on (missing or wrong → 400 on the field `code`, nothing changes). Answers the members afterwards. The open invitations you made are revoked (only the owner invites); your API keys keep the scopes an admin holds.",
      requestBody: json(transferOwnershipSchema, { handOver: { userId: finance.userId, code: "492031" } }),
      responses: {
        "200": answer("{items}: the members afterwards", z.object({ items: z.array(memberSchema) }), {
          items: [
            { ...owner, role: "admin" },
            { ...finance, role: "owner" },
          ],
        }),
        ...memberRefusals(
          "members",
          [...MEMBER_CHANGE, "new-owner-needs-two-factor", "two-factor-code-required", "two-factor-code-wrong", "rate-limited"],
          ["NOT_FOUND", "RATE_LIMITED"],
          {
            VALIDATION_ERROR: {
              message: "the new owner must turn two-factor authentication on first",
              reason: "new-owner-needs-two-factor",
            },
            FORBIDDEN: { message: "only the owner hands the ownership over", reason: "role-forbids" },
            RATE_LIMITED: { message: "too many failed sign-ins for this account; retry in 600 s", reason: "rate-limited" },
            ...memberNotFound,
          },
        ),
      },
    },
  },
  "/api/user/invitations": {
    get: {
      ...member("members"),
      ...tagged("Members"),
      operationId: "listInvitations",
      summary: "List invitation links",
      description: "The account's invitation links, newest first (at most 100; never their secrets).",
      responses: {
        "200": answer("{items}", z.object({ items: z.array(invitationSchema) }), {
          items: [invitation, { ...invitation, invitationId: 4, role: "viewer", note: null, status: "accepted" }],
        }),
        ...memberRefusals("members", [], []),
      },
    },
    post: {
      ...member("members"),
      ...tagged("Members"),
      operationId: "createInvitation",
      summary: "Create an invitation link",
      description: `Whoever opens it joins with the role, once, within 72 hours. The answer's \`url\` and \`token\` are shown this once (only a hash is kept): pass the link on yourself. At most ${MAX_PENDING_INVITATIONS} links wait at once per account.`,
      requestBody: json(createInvitationSchema, { developer: { role: "developer", note: "for Sam, the new backend developer" } }),
      responses: {
        "201": answer(
          "Created: the invitation plus `url` and `token`, shown this once",
          invitationSchema.extend({ token: z.string(), url: z.string() }),
          { ...invitation, token: invitationToken, url: `${EX.site}/invite/${invitationToken}` },
        ),
        ...memberRefusals("members", ["invalid-request", "invitation-invalid"], [], {
          VALIDATION_ERROR: {
            message: "role: role must be one of admin, finance, developer, viewer",
            reason: "invalid-request",
            details: [{ path: "role", message: "role must be one of admin, finance, developer, viewer" }],
          },
        }),
      },
    },
  },
  "/api/user/invitations/{id}": {
    delete: {
      ...member("members"),
      ...tagged("Members"),
      operationId: "revokeInvitation",
      summary: "Revoke an invitation link",
      description: "One used or revoked already stays as it is.",
      requestParams: idParam("invitation", invitation.invitationId),
      responses: {
        "200": answer("The invitation", invitationSchema, { ...invitation, status: "revoked" }),
        ...memberRefusals("members", ["invalid-request", "invitation-invalid"], ["NOT_FOUND"], {
          ...badId("invitationId", "a positive integer"),
          NOT_FOUND: { message: "invitation 5 not found", reason: "invitation-invalid" },
        }),
      },
    },
  },
  "/api/user/invitations/accept": {
    post: {
      ...user,
      ...tagged("Members"),
      operationId: "acceptInvitation",
      summary: "Accept an invitation",
      description:
        "Joins the account an invitation link offers, with its role (signed in as yourself; the link works once). Then send X-Account-Id: accountId to act in it.",
      requestBody: json(acceptInvitationSchema, { accept: { token: invitationToken } }),
      responses: {
        "200": answer("{accountId, role}", z.object({ accountId: z.number().int(), role: z.enum(MEMBER_ROLES) }), {
          accountId: 7,
          role: invitation.role,
        }),
        ...userRefusals(
          ["invalid-request", "invitation-invalid", "invitation-used", "invitation-expired", "already-a-member"],
          ["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND"],
          {
            VALIDATION_ERROR: {
              message: "this invitation link has expired; ask for a new one",
              reason: "invitation-expired",
            },
            NOT_FOUND: { message: "this invitation link is not valid; ask for a new one", reason: "invitation-invalid" },
          },
        ),
      },
    },
  },
};
