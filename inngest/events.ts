import { eventType } from "inngest";
import { z } from "zod";

/** A recorded deposit waits to be forwarded; runs are serialised per deposit address. */
export const forwardRequested = eventType("bsc-pay/forward.requested", {
  schema: z.object({ forwardId: z.number().int().positive(), fromAddress: z.string() }),
});

/** A leased webhook delivery to attempt; runs are limited per endpoint. */
export const webhookDue = eventType("bsc-pay/webhook.due", {
  schema: z.object({ deliveryId: z.number().int().positive(), endpointId: z.number().int().positive(), lease: z.string() }),
});
