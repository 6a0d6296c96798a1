/** Domains and their webhooks (/api/user/domains, webhook deliveries) in the OpenAPI document. */

import { z } from "zod";
import { addDomainSchema, twoFactorCodeField, updateDomainSchema } from "../../domain/merchant-domains/manage-domains";
import { EVENT_TYPES } from "../../domain/notifications/events";
import { DELIVERY_STATUSES, deliveriesQuerySchema } from "../../domain/webhooks/deliveries";
import { EX } from "./examples";
import { answer, badLimit, described, idParam, json, member, memberErrors, type Problems } from "./shared";
import { tagged } from "./tags";
import { delivered, deliveries, domain, ping } from "./user-examples";
import { webhookEventSchema } from "./webhook-events";

/** A delivery of a webhook event to a domain's endpoint; `payload` is the exact body sent. */
const deliverySchema = z
  .object({
    deliveryId: z.number().int(),
    eventId: z.string().meta({ description: "The webhook-id header: the same on every attempt." }),
    eventType: z.enum(EVENT_TYPES),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    lastAttemptAt: z.string().nullable(),
    nextAttemptAt: z.string().nullable().meta({ description: "While pending: when the next attempt is due." }),
    deliveredAt: z.string().nullable(),
    createdAt: z.string(),
    payload: webhookEventSchema,
  })
  .meta({ id: "WebhookDelivery" });

const domainNotFound: Problems = { NOT_FOUND: { message: "domain not found", reason: "not-found" } };
const badDomainId: Problems = { VALIDATION_ERROR: { message: "domainId must be a positive integer", reason: "invalid-request" } };

export const domainPaths = {
  "/api/user/domains": {
    get: {
      ...member("read"),
      ...tagged("Domains"),
      operationId: "listDomains",
      summary: "List whitelisted domains",
      description:
        "Each domain's webhook signing secret appears only as webhookSecretHint (whsec_… and its last 4 characters), null without a webhookUrl. The secret itself: POST /api/user/domains/{id}/webhook-secret/reveal.",
      responses: {
        "200": answer("OK", described("[domain view]"), [domain]),
        ...memberErrors("read", ["UNAUTHORIZED"]),
      },
    },
    post: {
      ...member("developer"),
      ...tagged("Domains"),
      operationId: "createDomain",
      summary: "Whitelist a domain",
      requestBody: json(addDomainSchema, { shop: { domain: EX.shop } }),
      responses: {
        "201": answer("Created: the domain view", described("domain view"), {
          ...domain,
          payoutAddress: null,
          webhookUrl: null,
          webhookSecretHint: null,
        }),
        ...memberErrors("developer", ["VALIDATION_ERROR", "UNAUTHORIZED"], {
          VALIDATION_ERROR: { message: `domain ${EX.shop} is already whitelisted`, reason: "domain-already-whitelisted" },
        }),
      },
    },
  },
  "/api/user/domains/{id}": {
    get: {
      ...member("read"),
      ...tagged("Domains"),
      operationId: "getDomain",
      summary: "Get a domain",
      description: "One domain, with its webhookSecretHint while a webhookUrl is set (never the secret).",
      requestParams: idParam("domain"),
      responses: {
        "200": answer("OK", described("domain view"), domain),
        ...memberErrors("read", ["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND"], { ...badDomainId, ...domainNotFound }),
      },
    },
    patch: {
      ...member("read"),
      ...tagged("Domains"),
      operationId: "updateDomain",
      summary: "Update a domain",
      description:
        "Sets the payout address or webhook URL. The domain's first webhookUrl makes its signing secret: that one answer carries it as webhookSecret (copy it into your receiver), every later answer only webhookSecretHint — reveal it with POST /api/user/domains/{id}/webhook-secret/reveal. What the role must hold depends on the change: payoutAddress needs payout-targets (owner), webhookUrl developer, the fiat thresholds settings (FORBIDDEN role-forbids otherwise, nothing changes). With two-factor sign-in on, a change of either needs `code` (the app's current code; missing or wrong → 400 on the field `code`, nothing changes). Once the merchant has received a payment on any of its domains, a new payoutAddress takes effect after PAYOUT_CHANGE_DELAY (default 24 h): until then payoutAddress stays the old one and new sessions forward there, the answer shows pendingPayoutAddress, payoutChangeRequestedAt and payoutChangeEffectiveAt, and the webhook domain.payout_changed (status pending) announces it. While the merchant has never been paid, it changes at once (status applied). Cancel with DELETE /api/user/domains/{id}/payout-change.",
      requestParams: idParam("domain"),
      requestBody: json(updateDomainSchema, {
        payout: { payoutAddress: EX.recipient, code: "492031" },
        webhook: { webhookUrl: `${EX.shop}/webhooks/bsc-pay`, code: "492031" },
      }),
      responses: {
        "200": answer("OK: the domain view", described("domain view"), {
          ...domain,
          pendingPayoutAddress: EX.recipient,
          payoutChangeRequestedAt: EX.later,
          payoutChangeEffectiveAt: "2026-11-29T09:12:30.000Z",
        }),
        ...memberErrors("payout-targets", ["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND"], domainNotFound),
      },
    },
    delete: {
      ...member("developer"),
      ...tagged("Domains"),
      operationId: "deleteDomain",
      summary: "Remove a domain",
      description:
        "Removes a domain from the whitelist; its webhooks stop with it. Refused (VALIDATION_ERROR, nothing changes) while one of its payment sessions is pending, a withdrawal from its wallet is not final, or its withdrawal wallet still holds tokens (or their balance cannot be read).",
      requestParams: idParam("domain"),
      responses: {
        "200": answer("{message, domainId}", described("{message, domainId}"), {
          message: "domain removed from the whitelist",
          domainId: 3,
        }),
        ...memberErrors("developer", ["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND"], {
          VALIDATION_ERROR: {
            message: `${EX.shop} cannot be deleted yet: its withdrawal wallet ${EX.withdrawalWallet} holds 8 USDT: withdraw it first`,
            reason: "domain-deletion-blocked",
          },
          ...domainNotFound,
        }),
      },
    },
  },
  "/api/user/domains/{id}/webhook-secret": {
    post: {
      ...member("developer"),
      ...tagged("Webhooks"),
      operationId: "rotateWebhookSecret",
      summary: "Rotate the webhook secret",
      description:
        "Rotates the webhook signing secret (the old one keeps signing, as a second signature, for 24 h). Needs the member's current two-factor code `{code}`: without two-factor on, 403 webhook-secret-needs-two-factor (turn it on first); missing or wrong, 400 on `code`. The answer is the domain view with the new webhookSecret — shown this once — and previousSecretExpiresAt. Audited as domain.webhook_secret_rotated (never the secret).",
      requestParams: idParam("domain"),
      requestBody: json(z.object({ code: twoFactorCodeField }), { twoFactor: { code: "492031" } }),
      responses: {
        "200": answer("The domain view with the new webhookSecret (this once)", described("domain view + webhookSecret"), {
          ...domain,
          webhookSecretHint: "whsec_…bmV3",
          webhookSecret: "whsec_bmV3c2VjcmV0bmV3c2VjcmV0bmV3",
          previousSecretExpiresAt: "2026-11-29T09:12:30.000Z",
        }),
        ...memberErrors("developer", ["VALIDATION_ERROR", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND"], {
          VALIDATION_ERROR: {
            message: "this domain has no webhookUrl; set one first (PATCH /api/user/domains/:id)",
            reason: "webhook-url-missing",
          },
          ...domainNotFound,
        }),
      },
    },
  },
  "/api/user/domains/{id}/webhook-secret/reveal": {
    post: {
      ...member("developer"),
      ...tagged("Webhooks"),
      operationId: "revealWebhookSecret",
      summary: "Reveal the webhook secret",
      description:
        "Shows the domain's webhook signing secret (and the previous one while it still signs). The only answer that shows a signing secret after it was made: the developer permission and the member's current two-factor code `{code}`. Without two-factor on, 403 webhook-secret-needs-two-factor (a secret that signs payment events must not be one stolen session away); a missing or wrong code, 400 on `code` — each wrong code counts as a failed sign-in of the member (the sign-in throttle limits guesses) and each code works once. No webhookUrl: 400 webhook-url-missing. Answered with Cache-Control: no-store; audited as domain.webhook_secret_revealed (never the secret).",
      requestParams: idParam("domain"),
      requestBody: json(z.object({ code: twoFactorCodeField }), { twoFactor: { code: "492031" } }),
      responses: {
        "200": answer("The secret", described("{domainId, webhookSecret, webhookSecretHint, previousSecret, previousSecretExpiresAt}"), {
          domainId: 3,
          webhookSecret: "whsec_Zm9vYmFyYmF6cXV4cXV1eGNvcmdl",
          webhookSecretHint: "whsec_…cmdl",
          previousSecret: null,
          previousSecretExpiresAt: null,
        }),
        ...memberErrors("developer", ["VALIDATION_ERROR", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND"], {
          VALIDATION_ERROR: {
            message: "this domain has no webhookUrl; set one first (PATCH /api/user/domains/:id)",
            reason: "webhook-url-missing",
          },
          ...domainNotFound,
        }),
      },
    },
  },
  "/api/user/domains/{id}/payout-change": {
    delete: {
      ...member("payout-targets"),
      ...tagged("Domains"),
      operationId: "cancelPayoutChange",
      summary: "Cancel a payout address change",
      description:
        "Cancels a payout address change still waiting for its date (no two-factor code needed). The pending change is dropped and domain.payout_changed (status cancelled) is sent; payoutAddress stays as it is. Nothing waiting (or the change already took effect) → 400.",
      requestParams: idParam("domain"),
      responses: {
        "200": answer("The domain view", described("domain view"), domain),
        ...memberErrors("payout-targets", ["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND"], {
          VALIDATION_ERROR: {
            message:
              "no payout address change is waiting for this domain (a change takes effect at its date and can no longer be cancelled then)",
            reason: "payout-change-not-waiting",
          },
          ...domainNotFound,
        }),
      },
    },
  },
  "/api/user/domains/{id}/webhook-test": {
    post: {
      ...member("developer"),
      ...tagged("Webhooks"),
      operationId: "sendWebhookTest",
      summary: "Send a test webhook",
      description: "Queues a `ping` event to the domain's webhook URL.",
      requestParams: idParam("domain"),
      responses: {
        "201": answer("The queued delivery", deliverySchema, ping),
        ...memberErrors("developer", ["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND", "RATE_LIMITED"], {
          VALIDATION_ERROR: {
            message: "this domain has no webhookUrl; set one first (PATCH /api/user/domains/:id)",
            reason: "webhook-url-missing",
          },
          RATE_LIMITED: {
            message: "5 test events are still waiting for your endpoint; send more once they are delivered",
            reason: "webhook-test-events-waiting",
          },
          ...domainNotFound,
        }),
      },
    },
  },
  "/api/user/domains/{id}/webhook-deliveries": {
    get: {
      ...member("read"),
      ...tagged("Webhooks"),
      operationId: "listWebhookDeliveries",
      summary: "List webhook deliveries",
      description: "Webhook deliveries of the domain, newest first: event type, attempts, last status code and error, next attempt.",
      requestParams: { ...idParam("domain"), query: deliveriesQuerySchema },
      responses: {
        "200": answer(
          "{items, meta}",
          z.object({
            items: z.array(deliverySchema),
            meta: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), pages: z.number().int() }),
          }),
          deliveries,
        ),
        ...memberErrors("read", ["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND"], { ...badLimit, ...domainNotFound }),
      },
    },
  },
  "/api/user/webhook-deliveries/{id}/redeliver": {
    post: {
      ...member("developer"),
      ...tagged("Webhooks"),
      operationId: "redeliverWebhook",
      summary: "Redeliver a webhook",
      description: "Sends a delivery again, with the same webhook-id, on a fresh retry schedule.",
      requestParams: idParam("webhook delivery", 9177),
      responses: {
        "200": answer("The delivery, pending again", deliverySchema, {
          ...delivered,
          status: "pending",
          nextAttemptAt: EX.later,
          deliveredAt: null,
        }),
        ...memberErrors("developer", ["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND"], {
          VALIDATION_ERROR: {
            message: "this delivery is being sent right now; try again in a few seconds",
            reason: "webhook-delivery-in-flight",
          },
          NOT_FOUND: { message: "webhook delivery not found", reason: "not-found" },
        }),
      },
    },
  },
};
