import { ok } from "@/lib/http/envelope";
import { withUser } from "@/lib/http/handlers";
import { parseIntegerId } from "@/lib/http/params";
import { redeliver } from "@/lib/webhooks/deliveries";

/** POST /api/user/webhook-deliveries/:id/redeliver → the delivery, pending again with the same webhook-id. */
export const POST = withUser(async ({ db, user, params }) =>
  ok(await redeliver(db, user.id, parseIntegerId(params.id, "deliveryId"))),
);
