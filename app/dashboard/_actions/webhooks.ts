"use server";

/**
 * The dashboard's twins of POST /api/user/domains/:id/webhook-test, …/webhook-secret and
 * /api/user/webhook-deliveries/:id/redeliver: same lib functions, same ownership checks.
 */
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getOwnDomain, rotateDomainWebhookSecret, twoFactorCodeField } from "@/lib/domain/domains/manage-domains";
import { type DeliveryView, queuePing, redeliver } from "@/lib/domain/webhooks/deliveries";
import { limiters } from "@/lib/web/http/rate-limit";
import { type ActionResult, runAction } from "@/lib/web/http/server-action";

const domainIdSchema = z.object({ domainId: z.coerce.number().int().positive() });
const deliveryIdSchema = z.object({ deliveryId: z.coerce.number().int().positive() });

export async function sendTestEventAction(domainId: number): Promise<ActionResult<DeliveryView>> {
  const result = await runAction("developer", domainIdSchema, { domainId }, async ({ db, account }, data) =>
    queuePing(db, await getOwnDomain(db, account.id, data.domainId)),
  );
  revalidatePath("/dashboard/domains");
  return result;
}

/** A new signing secret; `code` with two-factor on (a stolen session must not learn or replace it). */
export async function rotateWebhookSecretAction(
  domainId: number,
  code?: string,
): Promise<ActionResult<{ webhookSecret: string; previousSecretExpiresAt: string | null }>> {
  const input = { domainId, code: code?.trim() || undefined };
  const result = await runAction(
    "developer",
    domainIdSchema.extend({ code: twoFactorCodeField }),
    input,
    async ({ db, account, member }, data) => {
      const { endpoint } = await rotateDomainWebhookSecret(db, { account, member }, data.domainId, data.code);
      return { webhookSecret: endpoint.secret, previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null };
    },
  );
  revalidatePath("/dashboard/domains");
  return result;
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
