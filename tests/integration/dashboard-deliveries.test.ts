/**
 * The dashboard's webhook deliveries list pages by cursor: Newer/Older walk every
 * delivery once, newest first, with a status filter; a cursor we did not hand out is refused and
 * reads nothing; nothing counts the history. The API's page/limit answer keeps its shape, its
 * total bounded. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { selectionFor } from "@/components/webhooks/deliveries-query";
import { encodeCursor } from "@/lib/base/cursor";
import { AppError } from "@/lib/base/errors";
import { rowsOf } from "@/lib/db/rows";
import { getOwnDomain } from "@/lib/domain/merchant-domains/manage-domains";
import { deliveriesQuerySchema, listDeliveries } from "@/lib/domain/webhooks/deliveries";
import { deliveriesOfDomain } from "@/lib/web/dashboard/webhooks/summaries";
import { useTestDatabase } from "../helpers/database";

const db = useTestDatabase();

/** A merchant with one domain and its endpoint, `n` deliveries (every third failed), several created in the same microsecond. */
async function seed(n: number) {
  const [user] = rowsOf<{ id: number }>(
    await db().execute(
      sql`insert into users (email, password_hash) values (${`d${Date.now()}${Math.random()}@deliveries.test`}, 'x') returning id`,
    ),
  );
  const [domain] = rowsOf<{ id: number }>(
    await db().execute(
      sql`insert into domains (user_id, origin, webhook_url) values (${user!.id}, 'https://shop.test', 'https://shop.test/hook') returning id`,
    ),
  );
  const [endpoint] = rowsOf<{ id: number }>(
    await db().execute(sql`insert into webhook_endpoints (user_id, domain_id, url, secret)
      values (${user!.id}, ${domain!.id}, 'https://shop.test/hook', 'whsec_x') returning id`),
  );
  // Pairs share a created_at: the cursor must order by id within it, never skip or repeat.
  await db().execute(sql`insert into webhook_deliveries (endpoint_id, event_id, event_type, payload, status, created_at)
    select ${endpoint!.id}, 'evt_' || g, 'payment.completed', '{}', case when g % 3 = 0 then 'failed' else 'delivered' end,
      timestamptz '2026-11-01 00:00:00.000001+00' + (g / 2) * interval '1 second'
    from generate_series(1, ${n}) g`);
  return { userId: user!.id, domainId: domain!.id };
}

describe("dashboard webhook deliveries by cursor", () => {
  let m: { userId: number; domainId: number };
  beforeAll(async () => {
    m = await seed(25);
  });

  it("walks every delivery once with Older, newest first, and back with Newer", async () => {
    const seen: number[] = [];
    const pages = [];
    let page = await deliveriesOfDomain(db(), m.userId, m.domainId, { limit: 10 });
    expect(page.newer).toBeNull();
    for (;;) {
      pages.push(page);
      seen.push(...page.items.map((d) => d.deliveryId));
      if (!page.older) break;
      page = await deliveriesOfDomain(db(), m.userId, m.domainId, { limit: 10, after: page.older });
    }
    expect(pages.map((p) => p.items.length)).toEqual([10, 10, 5]);
    expect(new Set(seen).size).toBe(25);
    const keys = pages.flatMap((p) => p.items.map((d) => [d.createdAt, d.deliveryId] as const));
    const sorted = [...keys].sort((x, y) => (x[0] === y[0] ? y[1] - x[1] : x[0] < y[0] ? 1 : -1));
    expect(keys).toEqual(sorted);
    // Newer from the last page gives back the middle one, exactly.
    const back = await deliveriesOfDomain(db(), m.userId, m.domainId, { limit: 10, before: pages[2]!.newer! });
    expect(back.items.map((d) => d.deliveryId)).toEqual(pages[1]!.items.map((d) => d.deliveryId));
    expect(back.newer).not.toBeNull();
    expect(back.older).not.toBeNull();
  });

  it("filters by status across pages", async () => {
    const first = await deliveriesOfDomain(db(), m.userId, m.domainId, { limit: 5, status: "failed" });
    const second = await deliveriesOfDomain(db(), m.userId, m.domainId, { limit: 5, status: "failed", after: first.older! });
    const all = [...first.items, ...second.items];
    expect(all).toHaveLength(8);
    expect(all.every((d) => d.status === "failed")).toBe(true);
    expect(second.older).toBeNull();
  });

  it("refuses a cursor it did not hand out (a payments cursor included), and another user's domain", async () => {
    const bad = [
      "not-a-cursor!",
      encodeCursor({ createdAt: "2026-11-01T00:00:00.000001Z", id: "0b5c7a3e-1d2f-4a6b-8c9d-0e1f2a3b4c5d" }),
      Buffer.from("2026-11-01T00:00:00.000001Z|1 or 1=1").toString("base64url"),
    ];
    for (const after of bad) {
      const error = await deliveriesOfDomain(db(), m.userId, m.domainId, { limit: 10, after }).catch((e: unknown) => e);
      expect(error, after).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("VALIDATION_ERROR");
    }
    // The page never sends a bad cursor: it opens the newest page, and an old whPage link does too.
    expect(selectionFor(m.domainId, { wh: String(m.domainId), whAfter: bad[1], whPage: "3" })).toEqual({
      status: undefined,
      after: undefined,
      before: undefined,
    });
    const other = await seed(1);
    const error = await deliveriesOfDomain(db(), other.userId, m.domainId, { limit: 10 }).catch((e: unknown) => e);
    expect((error as AppError).code).toBe("NOT_FOUND");
  });

  it("API pages keep page/limit/meta.total, the total counted up to a cap", async () => {
    const domain = await getOwnDomain(db(), m.userId, m.domainId);
    const page2 = await listDeliveries(db(), domain, deliveriesQuerySchema.parse({ page: "2", limit: "10" }));
    expect(page2.meta).toEqual({ page: 2, limit: 10, total: 25, pages: 3 });
    expect(page2.items).toHaveLength(10);
    const failed = await listDeliveries(db(), domain, deliveriesQuerySchema.parse({ status: "failed" }));
    expect(failed.meta.total).toBe(8);
  });
});
