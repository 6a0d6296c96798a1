import { ok } from "@/lib/http/envelope";
import { withUser } from "@/lib/http/handlers";
import { parseIntegerId } from "@/lib/http/params";
import { limiters } from "@/lib/http/rate-limit";
import { redeliver } from "@/lib/webhooks/deliveries";

/** POST /api/user/webhook-deliveries/:id/redeliver → the delivery, pending again with the same webhook-id (30 a minute per user). */
export const POST = withUser(async ({ db, user, params }) => {
  const deliveryId = parseIntegerId(params.id, "deliveryId");
  limiters().redeliver.consume(String(user.id));
  return ok(await redeliver(db, user.id, deliveryId));
});
