/**
 * An audit entry as a sentence a bookkeeper reads ("ana@shop.example set the DUSD per-request
 * approval limit to 5"), one wording per action of lib/accounts/audit/actions.ts, from the entry's
 * before/after as its call site records them and the names the page looked up (`AuditNames`:
 * tokens, domains, members, payments, approvals by id). An action recorded by a newer release, or
 * an entry whose fields are not the ones expected, reads as its label: never a thrown error. Pure:
 * the page keeps the raw before/after one click away.
 */

import { auditActionLabel } from "../../../accounts/audit/actions";
import type { AuditEventView } from "../../../accounts/audit/list-audit";
import { formatAmount } from "../../../base/money";
import { formatFiatAmount, parseFiatAmount } from "../../../domain/pricing/fiat";

/** What the sentences name by id, read for one page of entries (audit-names.ts). */
export interface AuditNames {
  tokens: ReadonlyMap<number, { symbol: string; decimals: number }>;
  /** Domain id → its origin. */
  domains: ReadonlyMap<number, string>;
  /** User id → e-mail. */
  members: ReadonlyMap<number, string>;
  /** Payment session id → its order id, fiat currency (null: priced in tokens) and token symbol. */
  payments: ReadonlyMap<string, { orderId: string | null; currency: string | null; token: string }>;
  /** Approval id → its amount (formatted) and token symbol. */
  approvals: ReadonlyMap<string, { amount: string; token: string }>;
}

export const NO_NAMES: AuditNames = {
  tokens: new Map(),
  domains: new Map(),
  members: new Map(),
  payments: new Map(),
  approvals: new Map(),
};

type Entry = Pick<AuditEventView, "actor" | "action" | "target" | "before" | "after">;
type Fields = Record<string, unknown>;

const ROLE_WORDS: Record<string, string> = { owner: "owner", admin: "admin", finance: "finance", developer: "developer", viewer: "viewer" };

const record = (value: unknown): Fields => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Fields) : {});
const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
const numeric = (value: unknown): number | null => {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n) ? n : null;
};
const role = (value: unknown) => ROLE_WORDS[String(value)] ?? "member";
const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);
const shortAddress = (value: unknown) => {
  const a = text(value);
  return a && a.length > 14 ? `${a.slice(0, 6)}…${a.slice(-4)}` : (a ?? "an address");
};

/** Who acted, as the sentence's subject. */
export function actorWords(actor: Entry["actor"]): string {
  if (actor.kind === "api_key") return `API key ${actor.label}`;
  if (actor.kind === "system") return "BSC Pay";
  return actor.label;
}

/** "10" USD → "10.00 USD"; an amount or currency not understood is written as it was recorded. */
function fiat(amount: string, currency: string | null): string {
  if (!currency) return amount;
  const parsed = parseFiatAmount(currency, amount);
  return parsed.ok ? `${formatFiatAmount(parsed.amount.minor, parsed.amount.minorDigits)} ${currency}` : `${amount} ${currency}`;
}

function tokenAmount(units: unknown, tokenId: unknown, names: AuditNames): string | null {
  const token = names.tokens.get(numeric(tokenId) ?? -1);
  const raw = typeof units === "string" && /^\d+$/.test(units) ? BigInt(units) : null;
  return token && raw !== null ? `${formatAmount(raw, token.decimals)} ${token.symbol}` : null;
}

function domainName(id: unknown, names: AuditNames): string {
  return names.domains.get(numeric(id) ?? -1) ?? "a domain";
}

function memberName(id: unknown, names: AuditNames): string {
  return names.members.get(numeric(id) ?? -1) ?? "a member";
}

function order(sessionId: unknown, names: AuditNames): string {
  const payment = names.payments.get(String(sessionId));
  return payment?.orderId ? `order ${payment.orderId}` : "a payment";
}

const KIND_WORDS: Record<string, string> = { withdrawal: "withdrawal", refund: "refund", payout: "payout batch" };

function approvalPolicy(by: string, entry: Entry, names: AuditNames): string {
  const symbol = names.tokens.get(numeric(entry.target?.id) ?? -1)?.symbol;
  const token = symbol ? `${symbol} ` : "";
  const was = record(entry.before);
  const now = record(entry.after);
  const changed = (["perRequest", "perDay"] as const).filter((field) => text(was[field]) !== text(now[field]));
  const parts = changed.map((field, i) => {
    // The token's symbol once, in the first clause.
    const what = `${i === 0 ? token : ""}${field === "perRequest" ? "per-request" : "per-day"} approval limit`;
    const before = text(was[field]);
    const after = text(now[field]);
    if (after === null) return `removed the ${what}`;
    if (before === null) return `set the ${what} to ${after}`;
    return `changed the ${what} from ${before} to ${after}`;
  });
  return parts.length === 0 ? `${by} saved the ${token}approval limits unchanged` : `${by} ${parts.join(" and ")}`;
}

function settings(by: string, entry: Entry): string {
  const was = record(entry.before);
  const now = record(entry.after);
  const parts: string[] = [];
  if ("accountCurrency" in now)
    parts.push(`changed the account currency from ${text(was.accountCurrency) ?? "—"} to ${text(now.accountCurrency)}`);
  if ("membersNeedTwoFactor" in now)
    parts.push(
      now.membersNeedTwoFactor === true
        ? "required two-factor of every member who can move money or change settings"
        : "stopped requiring two-factor of members",
    );
  return parts.length === 0 ? `${by} changed the account's settings` : `${by} ${parts.join(" and ")}`;
}

/** `<kind>.approved` / `<kind>.rejected`: who decided what, an expiry said as one. */
function decision(by: string, entry: Entry, names: AuditNames, verb: "approved" | "rejected"): string {
  const kind = KIND_WORDS[entry.action.split(".")[0] ?? ""] ?? "request";
  const after = record(entry.after);
  const approval = names.approvals.get(String(after.approvalId));
  const what = approval ? `${article(kind)} of ${approval.amount} ${approval.token}` : article(kind);
  if (after.status === "expired" || (after.reason === "expired" && entry.actor.kind === "system"))
    return `${what[0]?.toUpperCase()}${what.slice(1)} expired without a second member's approval`;
  const reason = verb === "rejected" ? text(after.reason) : null;
  return `${by} ${verb} ${what}${reason ? ` (“${reason}”)` : ""}`;
}

/** The sentence of one entry (see the module comment). */
export function auditSentence(entry: Entry, names: AuditNames = NO_NAMES): string {
  const by = actorWords(entry.actor);
  const before = record(entry.before);
  const after = record(entry.after);
  switch (entry.action) {
    case "auth.sign_in":
      return after.twoFactor === true ? `${by} signed in with two-factor` : `${by} signed in`;
    case "member.invited":
      return `${by} invited ${text(after.note) ?? "someone"} to join as ${role(after.role)}`;
    case "invitation.revoked": {
      const why = { "member-removed": " when its maker was removed", "ownership-handed-over": " when the ownership was handed over" }[
        String(after.reason)
      ];
      return `${by} revoked the invitation of ${text(before.note) ?? article(role(before.role))}${why ?? ""}`;
    }
    case "member.added":
      // The actor is the person who joined (they accepted the invitation).
      return `${by} joined the account as ${role(after.role)}`;
    case "member.removed":
      return entry.actor.kind === "user" && String(entry.target?.id) === String(entry.actor.userId)
        ? `${by} left the account`
        : `${by} removed ${memberName(entry.target?.id, names)} (${role(before.role)})`;
    case "member.role_changed":
      return "role" in before
        ? `${by} changed ${memberName(entry.target?.id, names)}'s role from ${role(before.role)} to ${role(after.role)}`
        : `${by} made ${memberName(entry.target?.id, names)} the ${role(after.role)}`;
    case "api_key.created":
      return `${by} created the API key “${text(after.name) ?? "unnamed"}”`;
    case "api_key.revoked": {
      const why = { "member-removed": " when its maker was removed", "role-reduced": " when its maker's role no longer allowed it" }[
        String(after.reason)
      ];
      return `${by} revoked the API key “${text(before.name) ?? "unnamed"}”${why ?? ""}`;
    }
    case "api_key.scopes_reduced":
      return `${by} reduced what the API key “${text(before.name) ?? "unnamed"}” may do, with its maker's new role (${role(after.role)})`;
    case "domain.payout_target_changed":
      return `${by} changed the payout address of ${domainName(entry.target?.id, names)} to ${shortAddress(after.payoutAddress)}`;
    case "domain.webhook_changed": {
      const domain = domainName(entry.target?.id, names);
      if (!text(after.webhookUrl)) return `${by} removed the webhook of ${domain}`;
      return `${by} ${text(before.webhookUrl) ? "changed" : "set"} the webhook of ${domain} to ${text(after.webhookUrl)}`;
    }
    case "domain.webhook_secret_revealed":
      return `${by} revealed the webhook secret of ${domainName(entry.target?.id, names)}`;
    case "domain.webhook_secret_rotated":
      return `${by} rotated the webhook secret of ${domainName(entry.target?.id, names)}`;
    case "withdrawal.requested": {
      const amount = [text(after.amount), text(after.tokenSymbol)].filter(Boolean).join(" ") || "tokens";
      const waits = after.status === "awaiting_approval" ? ", awaiting approval" : "";
      return `${by} asked to withdraw ${amount} to ${shortAddress(after.toAddress)}${waits}`;
    }
    case "refund.requested": {
      const payment = names.payments.get(String(after.sessionId));
      const tokens = text(after.amount) ? [after.amount, payment?.token].filter(Boolean).join(" ") : null;
      const amount = text(after.fiatAmount) ? fiat(String(after.fiatAmount), payment?.currency ?? null) : tokens;
      return `${by} requested ${amount ? `a refund of ${amount}` : "a full refund"} for ${order(after.sessionId, names)}`;
    }
    case "refund.claim_link_issued":
      return `${by} issued a new claim link for the refund of ${order(after.sessionId, names)}`;
    case "payout.requested": {
      const total = tokenAmount(after.total, after.tokenId, names) ?? "tokens";
      const count = numeric(after.itemCount);
      const recipients = count === null ? "several recipients" : count === 1 ? "1 recipient" : `${count} recipients`;
      return `${by} asked to pay out ${total} to ${recipients}${after.status === "awaiting_approval" ? ", awaiting approval" : ""}`;
    }
    case "withdrawal.approved":
    case "refund.approved":
    case "payout.approved":
      return decision(by, entry, names, "approved");
    case "withdrawal.rejected":
    case "refund.rejected":
    case "payout.rejected":
      return decision(by, entry, names, "rejected");
    case "approval_policy.changed":
      return approvalPolicy(by, entry, names);
    case "two_factor.enabled":
      return `${by} turned two-factor sign-in on`;
    case "two_factor.disabled":
      return `${by} turned two-factor sign-in off`;
    case "password.changed":
      return `${by} changed their password`;
    case "account.settings_changed":
      return settings(by, entry);
    default:
      return `${by}: ${auditActionLabel(entry.action)}${entry.target ? ` (${entry.target.type} ${entry.target.id})` : ""}`;
  }
}
