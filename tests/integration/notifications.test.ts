import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATCH as patchDomain } from "@/app/api/user/domains/[id]/route";
import { POST as addDomainRoute } from "@/app/api/user/domains/route";
import type { Db } from "@/lib/db";
import { webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { attemptNotification, claimDueNotifications } from "@/lib/domain/notifications/delivery";
import type { NotificationEvent } from "@/lib/domain/notifications/events";
import { audienceOf, notify } from "@/lib/domain/notifications/outbox";
import { signUp } from "../helpers/accounts";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";

/**
 * The notifications layer (lib/domain/notifications): `notify` offers every event to every channel
 * in the caller's transaction; a domain nobody listens to gets nothing written; delivery claims and
 * attempts by channel.
 */
const db = useTestDatabase();
useConfig({ NEXTAUTH_SECRET: "integration-test-secret-0123456789", WEBHOOK_ALLOW_PRIVATE: "true" });

let listening: number;
let silent: number;

beforeAll(async () => {
  const { auth } = await signUp();
  const add = async (domain: string) =>
    (await call(addDomainRoute, { method: "POST", headers: auth, body: { domain } })).body.data.domainId as number;
  listening = await add("https://listening.example.com");
  silent = await add("https://silent.example.com");
  const saved = await call(patchDomain, {
    method: "PATCH",
    headers: auth,
    params: { id: String(listening) },
    body: { webhookUrl: "http://127.0.0.1:9/hook" },
  });
  expect(saved.status).toBe(200);
});

afterAll(async () => {
  // Nothing here may be delivered by another file's pump: the endpoint is a closed port.
  await db()
    .delete(webhookEndpoints)
    .where(inArray(webhookEndpoints.domainId, [listening, silent]));
});

const event = (domainId: number | null, orderKey: string): NotificationEvent => ({
  domainId,
  type: "payment.completed",
  orderKey,
  data: { sessionId: orderKey },
});

async function rowsFor(orderKey: string) {
  return db().select().from(webhookDeliveries).where(eq(webhookDeliveries.orderKey, orderKey));
}

describe("notify", () => {
  it("writes an event for a domain with a receiver, and nothing for a domain without one or for no domain", async () => {
    const written = await notify(db(), [event(listening, "n:1"), event(silent, "n:2"), event(null, "n:3")]);
    expect(written).toBe(1);
    expect(await rowsFor("n:1")).toHaveLength(1);
    expect(await rowsFor("n:2")).toEqual([]);
    expect(await rowsFor("n:3")).toEqual([]);
  });

  it("commits with the caller's transaction, or not at all", async () => {
    await db()
      .transaction(async (tx) => {
        await notify(tx as unknown as Db, [event(listening, "n:rolled-back")]);
        throw new Error("the change failed");
      })
      .catch(() => {});
    expect(await rowsFor("n:rolled-back")).toEqual([]);
  });

  it("tells who listens before the event's data is built, and writes with what it was told", async () => {
    const audience = await audienceOf(db(), [listening, silent, null]);
    expect([audience.listens(listening), audience.listens(silent), audience.listens(null)]).toEqual([true, false, false]);
    expect(await notify(db(), [event(listening, "n:known")], new Date(), audience)).toBe(1);
    expect(await notify(db(), [])).toBe(0);
  });
});

describe("delivery by channel", () => {
  it("claims due rows with their channel and receiver, and skips a claim of a channel this build does not know", async () => {
    await notify(db(), [event(listening, "n:claim")]);
    const claims = await claimDueNotifications(db(), 1000);
    const [endpoint] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.domainId, listening));
    const mine = claims.filter((c) => c.endpointId === endpoint?.id);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((c) => c.channel === "webhook")).toBe(true);
    const [first] = mine;
    expect(await attemptNotification(db(), { ...first!, channel: "carrier-pigeon" as "webhook" })).toBe("skipped");
    const [row] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, first!.deliveryId));
    expect(row).toMatchObject({ status: "pending", attempts: 0 });
  });
});
