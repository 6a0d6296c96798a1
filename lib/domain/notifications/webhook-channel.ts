/** The webhook channel: a domain's endpoint receives its events, signed (Standard Webhooks); lib/domain/webhooks does the work. */

import { attemptDelivery, claimDueDeliveries } from "../webhooks/dispatch";
import { endpointsForEvents } from "../webhooks/endpoints";
import { insertDeliveries } from "../webhooks/outbox";
import type { NotificationChannel } from "./channel";

export const webhookChannel: NotificationChannel = {
  name: "webhook",
  audience: async (tx, domainIds) => {
    const endpoints = await endpointsForEvents(tx, [...domainIds]);
    return {
      listens: (domainId) => endpoints.has(domainId),
      write: async (writer, events, now) => (endpoints.size > 0 ? (await insertDeliveries(writer, endpoints, events, now)).length : 0),
    };
  },
  claimDue: async (db, limit, options) => (await claimDueDeliveries(db, limit, options)).map((claim) => ({ channel: "webhook", ...claim })),
  attempt: (db, claim, options) => attemptDelivery(db, claim, options),
};
