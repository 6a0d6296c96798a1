import { redeliver } from "@/lib/domain/webhooks/deliveries";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";
import { parseIntegerId } from "@/lib/web/http/params";
import { limiters } from "@/lib/web/http/rate-limit";

/** POST /api/user/webhook-deliveries/:id/redeliver → the delivery, pending again with the same webhook-id (30 a minute per user). */
export const POST = withMember("developer", async ({ db, account, params }) => {
  const deliveryId = parseIntegerId(params.id, "deliveryId");
  limiters().redeliver.consume(String(account.id));
  return ok(await redeliver(db, account.id, deliveryId));
});
