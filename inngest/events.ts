/** The events between Inngest functions; their names are the schedule's (lib/ops/jobs/schedule.ts). */

import { eventType } from "inngest";
import { z } from "zod";
import { SCHEDULE } from "@/lib/ops/jobs/schedule";

/** A recorded deposit waits to be forwarded; runs are serialised per deposit address. */
export const forwardRequested = eventType(SCHEDULE.forward.inngest.trigger.event, {
  schema: z.object({ forwardId: z.number().int().positive(), fromAddress: z.string() }),
});

/** A leased notification (a webhook delivery) to attempt; runs are limited per receiver. Events sent before channels existed carry no channel: a webhook. */
export const webhookDue = eventType(SCHEDULE.deliver.inngest.trigger.event, {
  schema: z.object({
    channel: z.enum(["webhook"]).optional(),
    deliveryId: z.number().int().positive(),
    endpointId: z.number().int().positive(),
    lease: z.string(),
  }),
});
