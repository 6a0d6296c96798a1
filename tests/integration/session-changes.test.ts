/**
 * An open checkout page learns of a change the moment it is committed, by whichever
 * process of the database made it — an expiry, a payment the scanner recorded: the change is
 * announced (NOTIFY) and the page's feed, listening, reads at once instead of at its next tick. On PostgreSQL "another process" is a second
 * connection pool to the same database; PGlite is one process.
 */
import { eq, sql } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { setDatabase } from "@/lib/db";
import { type DatabaseHandle, openPostgres } from "@/lib/db/client";
import { notifyReachesListen } from "@/lib/db/listen-check";
import { paymentSessions } from "@/lib/db/schema";
import { scanPorts } from "@/lib/domain/payments/engine-ports";
import { expireDueSessions } from "@/lib/domain/payments/expire-due";
import { SESSION_CHANGES_CHANNEL } from "@/lib/domain/payments/session-changes";
import { scanOnce } from "@/lib/engine/scanner/scanner";
import { type CheckoutEvent, CheckoutHub } from "@/lib/web/checkout/checkout-hub";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { createTestDatabase } from "../helpers/database";
import { payTo } from "../helpers/engine";
import { call } from "../helpers/http";

const chain = useTestChain({ chainId: 56 });
let handle: DatabaseHandle & { url?: string };
let other: DatabaseHandle;
let merchant: Merchant;
let token: Address;

beforeAll(async () => {
  handle = await createTestDatabase();
  setDatabase(handle);
  other = handle.url ? openPostgres(handle.url, { max: 2 }) : handle;
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  token = await deployTestToken(chain().url, { symbol: "CHG" });
  merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
});
afterAll(async () => {
  if (other !== handle) await other?.close();
  await handle?.close();
});

describe("session changes reach open checkout pages at once", () => {
  it("brings the feed's read forward when another process announces a change of a watched session", async () => {
    const created = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount: "1" },
    });
    const sessionId = created.body.data.sessionId as string;
    // A feed that would read again only in a minute: only the announcement can explain a quick update.
    const hub = new CheckoutHub(
      async () => handle.db,
      60_000,
      (onChange) => handle.listen(SESSION_CHANGES_CHANNEL, (payload) => onChange(payload.split(","))),
    );
    const events: CheckoutEvent[] = [];
    const unsubscribe = hub.subscribe(sessionId, (event) => events.push(event));
    try {
      await expect.poll(() => events.length, { timeout: 5_000 }).toBe(1);
      expect(events[0]).toMatchObject({ kind: "status", data: { status: "pending" } });
      await new Promise((r) => setTimeout(r, 200)); // the LISTEN is in place

      await other.db
        .update(paymentSessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(paymentSessions.id, sessionId));
      expect(await expireDueSessions(other.db)).toBe(1);
      await expect
        .poll(() => events.at(-1), { timeout: 10_000, interval: 20 })
        .toMatchObject({ kind: "status", data: { status: "expired" } });
      expect(hub.stats.ticks).toBe(2);
    } finally {
      unsubscribe();
    }
  });

  it("brings the feed's read forward when another process's scanner records a payment of a watched session", async () => {
    const created = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount: "2" },
    });
    const { sessionId, depositAddress } = created.body.data as { sessionId: string; depositAddress: Address };
    const hub = new CheckoutHub(
      async () => handle.db,
      60_000,
      (onChange) => handle.listen(SESSION_CHANGES_CHANNEL, (payload) => onChange(payload.split(","))),
    );
    const events: CheckoutEvent[] = [];
    const unsubscribe = hub.subscribe(sessionId, (event) => events.push(event));
    try {
      await expect.poll(() => events.length, { timeout: 5_000 }).toBe(1);
      await new Promise((r) => setTimeout(r, 200)); // the LISTEN is in place
      await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, token, depositAddress, parseUnits("2", 18)) });
      // The other process's scan records the transfer; its commit announces the session.
      expect((await scanOnce(other.db, "bsc", scanPorts))?.transfers).toBe(1);
      await expect
        .poll(() => events.at(-1), { timeout: 10_000, interval: 20 })
        .toMatchObject({ kind: "status", data: { status: "completed" } });
      expect(hub.stats.ticks).toBe(2);
    } finally {
      unsubscribe();
    }
  });

  it("checks at start-up that a NOTIFY reaches this process's LISTEN (a transaction-mode pooler would swallow it)", async () => {
    expect(await notifyReachesListen(handle)).toBe(true);
    // What a pooler does: the LISTEN is accepted, on a connection no notification ever reaches.
    const deaf: DatabaseHandle = { ...handle, listen: (channel) => handle.listen(channel, () => {}) };
    expect(await notifyReachesListen(deaf, 500)).toBe(false);
  });

  it("ignores announcements of sessions no page watches", async () => {
    const hub = new CheckoutHub(
      async () => handle.db,
      60_000,
      (onChange) => handle.listen(SESSION_CHANGES_CHANNEL, (payload) => onChange(payload.split(","))),
    );
    const created = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount: "1" },
    });
    const watched = created.body.data.sessionId as string;
    const unsubscribe = hub.subscribe(watched, () => {});
    try {
      await expect.poll(() => hub.stats.ticks, { timeout: 5_000 }).toBe(1);
      await new Promise((r) => setTimeout(r, 200));
      await other.db.execute(sql`select pg_notify(${SESSION_CHANGES_CHANNEL}, '00000000-0000-4000-8000-000000000000')`);
      await new Promise((r) => setTimeout(r, 500));
      expect(hub.stats.ticks).toBe(1);
    } finally {
      unsubscribe();
    }
  });
});
