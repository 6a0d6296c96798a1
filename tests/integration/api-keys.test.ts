import { eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { DELETE as revoke } from "@/app/api/user/api-keys/[id]/route";
import { POST as create, GET as list } from "@/app/api/user/api-keys/route";
import { AUTHENTICATED_KEY_TTL_MS, authenticateApiKey, forgetAuthenticatedKeys } from "@/lib/accounts/api-keys/authenticate-api-key";
import { getLogger } from "@/lib/base/log";
import { rowsOf } from "@/lib/db/rows";
import { apiKeys } from "@/lib/db/schema";
import { ok } from "@/lib/web/http/envelope";
import { withApiKey } from "@/lib/web/http/handlers";
import { newApiKey, signUp } from "../helpers/accounts";
import { useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const config = () => useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });

/** A stand-in /api/v1 route: answers with the key and user it authenticated. */
const whoAmI = withApiKey({ scope: "payments:read", browser: true }, async ({ apiKey, user }) =>
  ok({ apiKeyId: apiKey.id, userId: user.id }),
);

describe("API keys", () => {
  it("creates a random prefixed key, shown once, stored only as its SHA-256", async () => {
    config();
    const { auth, userId } = await signUp();
    const logSpy = vi.spyOn(getLogger(), "info");
    const res = await call(create, { method: "POST", headers: auth, body: { name: "shop backend" } });
    expect(res.status).toBe(201);
    const { key, id, prefix } = res.body.data;
    expect(key).toMatch(/^bscp_live_[A-Za-z0-9_-]{43}$/);
    expect(key.startsWith(prefix)).toBe(true);
    expect(res.body.data).toMatchObject({ name: "shop backend", revokedAt: null, lastUsedAt: null });

    const listed = await call(list, { headers: auth });
    expect(listed.body.data).toEqual([expect.objectContaining({ id, prefix, name: "shop backend" })]);
    expect(JSON.stringify(listed.body)).not.toContain(key);

    // Nowhere in the database in clear.
    const dump = rowsOf<{ j: string }>(await db().execute(sql`select row_to_json(k)::text as j from api_keys k`));
    expect(dump.map((r) => r.j).join()).not.toContain(key.slice(10));
    const who = await call(whoAmI, { headers: { "x-api-key": key } });
    expect(who.body.data).toEqual({ apiKeyId: id, userId });
    for (const c of logSpy.mock.calls) expect(JSON.stringify(c)).not.toContain(key);
  });

  it("two keys give 256 bits each and never collide", async () => {
    const { auth } = await signUp();
    const a = await newApiKey(auth);
    const b = await newApiKey(auth);
    expect(a.key).not.toBe(b.key);
  });

  it("defaults the name and rejects a bad one", async () => {
    const { auth } = await signUp();
    const unnamed = await call(create, { method: "POST", headers: auth });
    expect(unnamed.status).toBe(201);
    expect(unnamed.body.data.name).toBe("default");
    const bad = await call(create, { method: "POST", headers: auth, body: { name: 42 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "VALIDATION_ERROR", message: "name must be a string" });
  });

  it("answers a missing, unknown or malformed x-api-key with 401", async () => {
    for (const headers of [{}, { "x-api-key": "bscp_live_unknown" }, { "x-api-key": "nonsense" }] as Record<string, string>[]) {
      const res = await call(whoAmI, { headers });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("UNAUTHORIZED");
    }
  });

  it("revokes a key at once; revoking again is harmless", async () => {
    const { auth } = await signUp();
    const { id, key } = await newApiKey(auth);
    expect((await call(whoAmI, { headers: { "x-api-key": key } })).status).toBe(200);
    const res = await call(revoke, { method: "DELETE", headers: auth, params: { id: String(id) } });
    expect(res.status).toBe(200);
    expect(res.body.data.revokedAt).toEqual(expect.any(String));
    const after = await call(whoAmI, { headers: { "x-api-key": key } });
    expect(after.status).toBe(401);
    expect(after.body.error.message).toBe("API key is invalid or revoked");
    expect((await call(revoke, { method: "DELETE", headers: auth, params: { id: String(id) } })).status).toBe(200);
  });

  it("trusts a key it authenticated for at most AUTHENTICATED_KEY_TTL_MS when another instance revokes it", async () => {
    const { auth } = await signUp();
    const { id, key } = await newApiKey(auth);
    expect((await call(whoAmI, { headers: { "x-api-key": key } })).status).toBe(200);
    // Another instance of a scaled-out deployment revokes it: straight in the database, this process is not told.
    await db().update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, id));
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      expect((await call(whoAmI, { headers: { "x-api-key": key } })).status).toBe(200); // remembered, no query
      vi.setSystemTime(Date.now() + AUTHENTICATED_KEY_TTL_MS + 1);
      const after = await call(whoAmI, { headers: { "x-api-key": key } });
      expect(after.status).toBe(401);
      expect(after.body.error.message).toBe("API key is invalid or revoked");
    } finally {
      vi.useRealTimers();
    }
  });

  it("counts that trust from when the lookup started: a slow lookup never stretches it past a revocation", async () => {
    const { auth } = await signUp();
    const { id, key } = await newApiKey(auth);
    forgetAuthenticatedKeys();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const startedAt = Date.now();
      const lookup = authenticateApiKey(db(), key);
      vi.setSystemTime(startedAt + 500); // the database took half a second to answer
      expect((await lookup).apiKey.id).toBe(id);
      // Revoked elsewhere as the lookup began: from TTL after that, every request is refused.
      await db()
        .update(apiKeys)
        .set({ revokedAt: new Date(startedAt) })
        .where(eq(apiKeys.id, id));
      vi.setSystemTime(startedAt + AUTHENTICATED_KEY_TTL_MS);
      await expect(authenticateApiKey(db(), key)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not remember a lookup that was in flight when keys were forgotten", async () => {
    const { auth } = await signUp();
    const { id, key } = await newApiKey(auth);
    const inFlight = authenticateApiKey(db(), key);
    forgetAuthenticatedKeys(); // a revocation landing while the lookup reads the row
    expect((await inFlight).apiKey.id).toBe(id);
    await db().update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, id));
    await expect(authenticateApiKey(db(), key)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("keeps users apart: B cannot list or revoke A's key (404), and a malformed id is 400", async () => {
    const alice = await signUp();
    const bob = await signUp();
    const { id, key } = await newApiKey(alice.auth);
    expect((await call(list, { headers: bob.auth })).body.data).toEqual([]);
    const res = await call(revoke, { method: "DELETE", headers: bob.auth, params: { id: String(id) } });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: "NOT_FOUND", message: "API key not found", reason: "not-found" });
    expect((await call(whoAmI, { headers: { "x-api-key": key } })).status).toBe(200);
    const malformed = await call(revoke, { method: "DELETE", headers: alice.auth, params: { id: "abc" } });
    expect(malformed.status).toBe(400);
  });

  it("requires a user for every key endpoint", async () => {
    expect((await call(list)).status).toBe(401);
    expect((await call(create, { method: "POST", body: {} })).status).toBe(401);
    expect((await call(revoke, { method: "DELETE", params: { id: "1" } })).status).toBe(401);
  });
});
