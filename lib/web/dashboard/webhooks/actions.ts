"use server";

/**
 * The dashboard's twins of POST /api/user/domains/:id/webhook-test, …/webhook-secret, …/webhook-secret/reveal
 * and /api/user/webhook-deliveries/:id/redeliver: same lib functions, same ownership checks.
 */
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getOwnDomain, twoFactorCodeField } from "../../../domain/merchant-domains/manage-domains";
import {
  type RevealedWebhookSecret,
  type RotatedWebhookSecret,
  revealWebhookSecret,
  rotateDomainWebhookSecret,
} from "../../../domain/merchant-domains/webhook-secret";
import { type DeliveryView, queuePing, redeliver } from "../../../domain/webhooks/deliveries";
import { limiters } from "../../http/rate-limit";
import { type ActionResult, runAction } from "../shared/server-action";

const domainIdSchema = z.object({ domainId: z.coerce.number().int().positive() });
const deliveryIdSchema = z.object({ deliveryId: z.coerce.number().int().positive() });

export async function sendTestEventAction(domainId: number): Promise<ActionResult<DeliveryView>> {
  const result = await runAction("developer", domainIdSchema, { domainId }, async ({ db, account }, data) =>
    queuePing(db, await getOwnDomain(db, account.id, data.domainId)),
  );
  revalidatePath("/dashboard/domains");
  return result;
}

const secretSchema = domainIdSchema.extend({ code: twoFactorCodeField });

/**
 * A new signing secret, shown in this answer once; the member's two-factor code (a stolen session
 * must not learn or replace it; without two-factor on it is refused).
 */
export async function rotateWebhookSecretAction(domainId: number, code?: string): Promise<ActionResult<RotatedWebhookSecret>> {
  const input = { domainId, code: code?.trim() || undefined };
  const result = await runAction("developer", secretSchema, input, ({ db, account, member, address }, data) =>
    rotateDomainWebhookSecret(db, { account, member, address }, data.domainId, data.code),
  );
  revalidatePath("/dashboard/domains");
  return result;
}

/** The signing secret on request: the developer permission and the member's two-factor code; audited. */
export async function revealWebhookSecretAction(domainId: number, code?: string): Promise<ActionResult<RevealedWebhookSecret>> {
  const input = { domainId, code: code?.trim() || undefined };
  return runAction("developer", secretSchema, input, ({ db, account, member, address }, data) =>
    revealWebhookSecret(db, { account, member, address }, data.domainId, data.code),
  );
}

export async function redeliverAction(deliveryId: number): Promise<ActionResult<DeliveryView>> {
  const result = await runAction("developer", deliveryIdSchema, { deliveryId }, ({ db, account }, data) => {
    limiters().redeliver.consume(String(account.id));
    return redeliver(db, account.id, data.deliveryId);
  });
  revalidatePath("/dashboard/domains");
  revalidatePath("/dashboard/webhooks");
  return result;
}
