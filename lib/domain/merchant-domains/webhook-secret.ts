/**
 * A domain's webhook signing secret, shown only on request (docs/design.md §26): whoever holds it can
 * sign a `payment.completed` the shop's receiver accepts, so no list, page or other answer carries
 * it — they carry its hint (`whsec_…` + its last 4 characters, manage-domains.ts). It is shown:
 *
 * - once, in the answer of the request that makes it: the first webhook URL of a domain (no
 *   receiver trusts it yet), or a rotation;
 * - on request (`reveal`), with the previous secret while it still signs after a rotation.
 *
 * Revealing and rotating are the `developer` permission's (the route checks), and need the
 * member's two-factor code — a member without two-factor is refused and told to turn it on: a
 * secret that signs money events must not be one stolen session cookie away. A wrong code counts
 * as a failed sign-in of the member (the sign-in throttle limits guesses) and each code works
 * once. Both are audited (`domain.webhook_secret_revealed` / `_rotated`), never with the secret.
 */

import { audit, byMember } from "../../accounts/audit/audit-origin";
import type { Acting } from "../../accounts/members/principal";
import { requireSecondFactor } from "../../accounts/users/two-factor";
import type { Db } from "../../db";
import type { Domain, WebhookEndpoint } from "../../db/schema";
import { requireEndpoint, rotateSecret, signingSecrets } from "../webhooks/endpoints";
import { type DomainView, getOwnDomain, toDomainView, webhookSecretHint } from "./manage-domains";
import { domainRefusal } from "./reasons";

export interface RevealedWebhookSecret {
  domainId: number;
  webhookSecret: string;
  webhookSecretHint: string;
  /** The secret before the last rotation while it still signs too (a second signature), else null. */
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
}

/** The secret of the account's domain, for a member with two-factor on and a current code. */
export async function revealWebhookSecret(
  db: Db,
  acting: Acting,
  domainId: number,
  code: string | undefined,
  now = new Date(),
): Promise<RevealedWebhookSecret> {
  const domain = await getOwnDomain(db, acting.account.id, domainId);
  // The code first: nothing about the domain's webhook is said to a session without one.
  await requireTwoFactorCode(db, acting, code, "see");
  const endpoint = await requireEndpoint(db, domain);
  const secret = endpoint.secret;
  // The previous secret while it still signs (signingSecrets: the current one first).
  const previous = signingSecrets(endpoint, now)[1] ?? null;
  const hint = webhookSecretHint(secret);
  await audit(db, byMember(acting), {
    action: "domain.webhook_secret_revealed",
    target: { type: "domain", id: domain.id },
    after: { webhookSecretHint: hint, withPrevious: previous !== null },
  });
  return {
    domainId: domain.id,
    webhookSecret: secret,
    webhookSecretHint: hint,
    previousSecret: previous,
    previousSecretExpiresAt: previous ? (endpoint.previousSecretExpiresAt?.toISOString() ?? null) : null,
  };
}

/** The domain view with its new secret, shown this once; the old one signs too for 24 h. */
export type RotatedWebhookSecret = DomainView & { webhookSecret: string; previousSecretExpiresAt: string | null };

/** A new signing secret (the old one signs too for 24 h), for a member with two-factor on and a current code. */
export async function rotateDomainWebhookSecret(
  db: Db,
  acting: Acting,
  domainId: number,
  code: string | undefined,
): Promise<RotatedWebhookSecret> {
  const domain = await getOwnDomain(db, acting.account.id, domainId);
  await requireTwoFactorCode(db, acting, code, "rotate");
  const endpoint = await rotateSecret(db, domain); // no webhookUrl: webhook-url-missing, nothing changes
  await audit(db, byMember(acting), {
    action: "domain.webhook_secret_rotated",
    target: { type: "domain", id: domain.id },
    after: { webhookSecretHint: webhookSecretHint(endpoint.secret) },
  });
  return madeNow(domain, endpoint);
}

/** The view of a domain whose secret this request made: the one answer that carries it. */
export function madeNow(domain: Domain, endpoint: WebhookEndpoint): RotatedWebhookSecret {
  return {
    ...toDomainView(domain, endpoint),
    webhookSecret: endpoint.secret,
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
  };
}

async function requireTwoFactorCode(db: Db, acting: Acting, code: string | undefined, what: "see" | "rotate"): Promise<void> {
  if (!acting.member.totpEnabledAt)
    throw domainRefusal(
      "FORBIDDEN",
      "webhook-secret-needs-two-factor",
      `to ${what} a webhook signing secret, turn on two-factor authentication first: the secret signs payment events your shop trusts`,
    );
  await requireSecondFactor(db, acting.member, code);
}
