/**
 * The resources the OpenAPI document groups its operations by, in the order a shop's developer
 * reads them: take payments, give money back or out, then set the account up. Each operation names
 * exactly one (`tagged`); the document's top-level `tags` and the /docs index come from this list.
 */

export const API_TAGS = [
  {
    name: "Payments",
    description:
      "Payment sessions: create one per order, send the payer to its checkoutUrl, then follow it by webhook or by polling its status.",
  },
  {
    name: "Refunds",
    description: "Give a completed payment back, in whole or in part: to an address you know, or as a claim link the payer completes.",
  },
  { name: "Withdrawals", description: "Send tokens from a domain's withdrawal wallet to an address, one at a time." },
  { name: "Payouts", description: "Pay many recipients of one token in one batch from a domain's withdrawal wallet." },
  {
    name: "Payment links",
    description: "Reusable pages at /l/<slug>: each Pay on one starts a fresh payment session.",
  },
  {
    name: "Webhooks",
    description:
      "The events sent to a domain's webhookUrl, signed per Standard Webhooks, and the operations that test, list and resend their deliveries or rotate their secret.",
  },
  { name: "Domains", description: "The shop domains whitelisted for payments: their payout address and webhook URL." },
  { name: "API keys", description: "Secret keys for servers and publishable keys for browser code, each with its scopes." },
  { name: "Tokens", description: "The BEP-20 tokens the account accepts." },
  { name: "Account", description: "The account's settings, audit log, gas spent and plan." },
  { name: "Members", description: "The accounts you belong to, their members and roles, and invitation links." },
  { name: "Approvals", description: "Money out above a token's thresholds waits for a second member's approval." },
  {
    name: "Sign-in",
    description: "Create an account, get a bearer token for /api/user, change the password, set up two-factor, sign out everywhere.",
  },
  {
    name: "Pages (public)",
    description: "What the payer's pages call, without an API key or a token: a payment link's page and a refund's claim page.",
  },
] as const;

export type ApiTag = (typeof API_TAGS)[number]["name"];

/** An operation's resource: spread into the operation (`...tagged("Payments")`). */
export const tagged = (tag: ApiTag) => ({ tags: [tag] });
