import { describe, expect, it } from "vitest";
import { AUDIT_ACTION_NAMES } from "@/lib/accounts/audit/actions";
import type { AuditEventView } from "@/lib/accounts/audit/list-audit";
import { namedIds } from "@/lib/web/dashboard/audit/audit-names";
import { type AuditNames, auditSentence } from "@/lib/web/dashboard/audit/audit-sentences";

/** Each audit action as a bookkeeper's sentence, from the before/after its call site records. */
const ana = { kind: "user" as const, userId: 7, label: "ana@shop.example" };
const SESSION = "0b7c5c3e-2a8f-4a8e-9d7e-3f3a1c1b2d4e";
const names: AuditNames = {
  tokens: new Map([[3, { symbol: "DUSD", decimals: 18 }]]),
  domains: new Map([[1, "shop.example"]]),
  members: new Map([
    [7, "ana@shop.example"],
    [9, "ben@shop.example"],
  ]),
  payments: new Map([[SESSION, { orderId: "INV-2026-014", currency: "USD", token: "DUSD" }]]),
  approvals: new Map([["apr_1", { amount: "20", token: "DUSD" }]]),
};

type Entry = Pick<AuditEventView, "actor" | "action" | "target" | "before" | "after">;
const entry = (action: string, parts: Partial<Entry> = {}): Entry => ({
  actor: ana,
  action,
  target: null,
  before: null,
  after: null,
  ...parts,
});
const say = (action: string, parts: Partial<Entry> = {}) => auditSentence(entry(action, parts), names);

describe("audit sentences", () => {
  it("says an approval limit as set, changed or removed, the token by its symbol", () => {
    const target = { type: "token", id: "3" };
    expect(
      say("approval_policy.changed", { target, before: { perRequest: null, perDay: null }, after: { perRequest: "5", perDay: null } }),
    ).toBe("ana@shop.example set the DUSD per-request approval limit to 5");
    expect(
      say("approval_policy.changed", { target, before: { perRequest: "5", perDay: "10" }, after: { perRequest: "8", perDay: null } }),
    ).toBe("ana@shop.example changed the DUSD per-request approval limit from 5 to 8 and removed the per-day approval limit");
    expect(
      say("approval_policy.changed", { target, before: { perRequest: "5", perDay: null }, after: { perRequest: "5", perDay: "50" } }),
    ).toBe("ana@shop.example set the DUSD per-day approval limit to 50");
    expect(say("approval_policy.changed", { target, before: { perRequest: "5" }, after: { perRequest: "5" } })).toBe(
      "ana@shop.example saved the DUSD approval limits unchanged",
    );
  });

  it("says a refund in the payment's currency, for its order", () => {
    const after = { sessionId: SESSION, amount: null, fiatAmount: "10", toAddress: null };
    expect(say("refund.requested", { target: { type: "refund", id: "r1" }, after })).toBe(
      "ana@shop.example requested a refund of 10.00 USD for order INV-2026-014",
    );
    expect(say("refund.requested", { after: { sessionId: SESSION, amount: "4.5", fiatAmount: null } })).toBe(
      "ana@shop.example requested a refund of 4.5 DUSD for order INV-2026-014",
    );
    expect(say("refund.requested", { after: { sessionId: "gone", amount: null, fiatAmount: null } })).toBe(
      "ana@shop.example requested a full refund for a payment",
    );
    expect(say("refund.claim_link_issued", { after: { sessionId: SESSION } })).toBe(
      "ana@shop.example issued a new claim link for the refund of order INV-2026-014",
    );
  });

  it("says money out and its decisions, never an engine status", () => {
    const key = { kind: "api_key" as const, apiKeyId: 2, label: "shop (bp_live_ab…)" };
    const withdrawal = {
      amount: "20",
      tokenSymbol: "DUSD",
      toAddress: "0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199",
      domainId: 1,
      status: "awaiting_approval",
    };
    const requested = auditSentence(entry("withdrawal.requested", { actor: key, after: withdrawal }), names);
    expect(requested).toBe("API key shop (bp_live_ab…) asked to withdraw 20 DUSD to 0x8626…1199, awaiting approval");
    expect(requested).not.toMatch(/awaiting_approval|domainId/);
    expect(say("withdrawal.approved", { after: { approvalId: "apr_1", status: "approved", amount: "20000000000000000000" } })).toBe(
      "ana@shop.example approved a withdrawal of 20 DUSD",
    );
    expect(say("refund.rejected", { after: { approvalId: "apr_1", status: "rejected", reason: "wrong order" } })).toBe(
      "ana@shop.example rejected a refund of 20 DUSD (“wrong order”)",
    );
    const expired = auditSentence(
      entry("payout.rejected", { actor: { kind: "system", label: "approval expiry" }, after: { approvalId: "apr_1", status: "expired" } }),
      names,
    );
    expect(expired).toBe("A payout batch of 20 DUSD expired without a second member's approval");
    expect(
      say("payout.requested", { after: { itemCount: 3, total: "1500000000000000000", tokenId: 3, status: "awaiting_approval" } }),
    ).toBe("ana@shop.example asked to pay out 1.5 DUSD to 3 recipients, awaiting approval");
  });

  it("says members, keys, domains and settings by name", () => {
    const ben = { type: "user", id: "9" };
    expect(say("auth.sign_in", { after: { twoFactor: true } })).toBe("ana@shop.example signed in with two-factor");
    expect(say("auth.sign_in")).toBe("ana@shop.example signed in");
    expect(say("member.invited", { after: { role: "finance", note: "Ben", expiresAt: "2026-12-01T00:00:00Z" } })).toBe(
      "ana@shop.example invited Ben to join as finance",
    );
    expect(say("invitation.revoked", { before: { role: "admin", note: null }, after: { reason: "member-removed" } })).toBe(
      "ana@shop.example revoked the invitation of an admin when its maker was removed",
    );
    expect(say("member.added", { target: ben, after: { role: "finance", invitationId: 4 } })).toBe(
      "ana@shop.example joined the account as finance",
    );
    expect(say("member.removed", { target: ben, before: { role: "viewer" } })).toBe("ana@shop.example removed ben@shop.example (viewer)");
    expect(say("member.removed", { target: { type: "user", id: "7" }, before: { role: "viewer" } })).toBe(
      "ana@shop.example left the account",
    );
    expect(say("member.role_changed", { target: ben, before: { role: "viewer" }, after: { role: "admin" } })).toBe(
      "ana@shop.example changed ben@shop.example's role from viewer to admin",
    );
    expect(say("member.role_changed", { target: ben, after: { role: "owner" } })).toBe("ana@shop.example made ben@shop.example the owner");
    expect(say("api_key.created", { after: { name: "shop", prefix: "bp_", kind: "live", scopes: [] } })).toBe(
      "ana@shop.example created the API key “shop”",
    );
    expect(say("api_key.revoked", { before: { name: "shop", prefix: "bp_" }, after: { reason: "role-reduced" } })).toBe(
      "ana@shop.example revoked the API key “shop” when its maker's role no longer allowed it",
    );
    expect(say("api_key.scopes_reduced", { before: { name: "shop" }, after: { role: "developer", scopes: [] } })).toBe(
      "ana@shop.example reduced what the API key “shop” may do, with its maker's new role (developer)",
    );
    const domain = { type: "domain", id: "1" };
    expect(
      say("domain.payout_target_changed", {
        target: domain,
        before: { payoutAddress: null },
        after: { payoutAddress: "0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199" },
      }),
    ).toBe("ana@shop.example changed the payout address of shop.example to 0x8626…1199");
    expect(
      say("domain.webhook_changed", { target: domain, before: { webhookUrl: null }, after: { webhookUrl: "https://shop.example/h" } }),
    ).toBe("ana@shop.example set the webhook of shop.example to https://shop.example/h");
    expect(say("domain.webhook_changed", { target: domain, before: { webhookUrl: "https://a" }, after: { webhookUrl: null } })).toBe(
      "ana@shop.example removed the webhook of shop.example",
    );
    expect(say("domain.webhook_secret_revealed", { target: domain })).toBe("ana@shop.example revealed the webhook secret of shop.example");
    expect(say("domain.webhook_secret_rotated", { target: { type: "domain", id: "99" } })).toBe(
      "ana@shop.example rotated the webhook secret of a domain",
    );
    expect(say("two_factor.enabled")).toBe("ana@shop.example turned two-factor sign-in on");
    expect(say("two_factor.disabled")).toBe("ana@shop.example turned two-factor sign-in off");
    expect(say("password.changed")).toBe("ana@shop.example changed their password");
    expect(say("account.settings_changed", { before: { accountCurrency: "USD" }, after: { accountCurrency: "EUR" } })).toBe(
      "ana@shop.example changed the account currency from USD to EUR",
    );
    expect(say("account.settings_changed", { before: { membersNeedTwoFactor: false }, after: { membersNeedTwoFactor: true } })).toBe(
      "ana@shop.example required two-factor of every member who can move money or change settings",
    );
  });

  it("reads an action it does not know, or fields it did not expect, as the action's label — never a raw field", () => {
    expect(say("shop.renamed", { target: { type: "shop", id: "4" } })).toBe("ana@shop.example: shop.renamed (shop 4)");
    expect(auditSentence(entry("withdrawal.requested", { after: "garbled" }))).toBe(
      "ana@shop.example asked to withdraw tokens to an address",
    );
    expect(auditSentence(entry("auth.sign_in", { actor: { kind: "system", label: "system" } }))).toBe("BSC Pay signed in");
  });

  it("has a sentence of its own for every action the log records", () => {
    for (const action of AUDIT_ACTION_NAMES) expect(say(action), action).not.toContain(`: `);
  });

  it("looks up only the ids its entries name", () => {
    const ids = namedIds([
      entry("approval_policy.changed", { target: { type: "token", id: "3" } }),
      entry("payout.requested", { after: { tokenId: 5, itemCount: 1 } }),
      entry("refund.requested", { after: { sessionId: SESSION } }),
      entry("refund.approved", { after: { approvalId: "apr_1" } }),
      entry("member.removed", { target: { type: "user", id: "9" } }),
      entry("domain.webhook_changed", { target: { type: "domain", id: "1" } }),
      entry("refund.requested", { after: { sessionId: "not-a-uuid" } }),
    ]);
    expect(ids).toEqual({ tokenIds: [3, 5], domainIds: [1], userIds: [9], sessionIds: [SESSION], approvalIds: ["apr_1"] });
  });
});
