import { redeliver } from "@/lib/domain/webhooks/deliveries";
import { ok } from "@/lib/web/http/envelope";
import { withUser } from "@/lib/web/http/handlers";
import { parseIntegerId } from "@/lib/web/http/params";
import { limiters } from "@/lib/web/http/rate-limit";

/** POST /api/user/webhook-deliveries/:id/redeliver → the delivery, pending again with the same webhook-id (30 a minute per user). */
export const POST = withUser(async ({ db, user, params }) => {
  const deliveryId = parseIntegerId(params.id, "deliveryId");
  limiters().redeliver.consume(String(user.id));
  return ok(await redeliver(db, user.id, deliveryId));
});
