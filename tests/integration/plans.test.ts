import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as choose, GET as getPlan } from "@/app/api/user/package/route";
import type { AppError } from "@/lib/base/errors";
import { openPglite } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { plans, subscriptions, users } from "@/lib/db/schema";
import { reserveSessionQuota } from "@/lib/domain/plans/current-plan";
import { grantPlan } from "@/lib/domain/plans/grant-plan";
import { signUp } from "../helpers/accounts";
import { useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const config = () => useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });

async function quotaError(userId: number): Promise<AppError | undefined> {
  return reserveSessionQuota(db(), userId).then(
    () => undefined,
    (e: unknown) => e as AppError,
  );
}

describe("plans", () => {
  it("starts without a plan; NO_PACKAGE until the free starter plan is chosen", async () => {
    config();
    const { auth, userId } = await signUp();
    const none = await call(getPlan, { headers: auth });
    expect(none.body.data).toMatchObject({ active: false, plan: null, usage: { sessionsCreated: 0, remaining: 0 } });
    expect((await quotaError(userId))?.code).toBe("NO_PACKAGE");

    const chosen = await call(choose, { method: "POST", headers: auth, body: { plan: "starter" } });
    expect(chosen.status).toBe(200);
    expect(chosen.body.data).toMatchObject({
      active: true,
      plan: { id: "starter", name: "Starter", monthlySessionQuota: 1000, priceUsdCents: 0 },
      usage: { sessionsCreated: 0, remaining: 1000 },
    });
    expect(await quotaError(userId)).toBeUndefined();
    // Choosing it again keeps the one active subscription.
    await call(choose, { method: "POST", headers: auth, body: { plan: "starter" } });
    expect(await db().select().from(subscriptions).where(eq(subscriptions.userId, userId))).toHaveLength(1);
  });

  it.each([
    [{ plan: "pro" }, 'plan "pro" is granted by the operator'],
    [{ plan: "gold" }, 'unknown plan "gold"'],
    [{ plan: 3 }, "plan must be a string"],
    [{}, "plan must be a string"],
  ])("refuses %j without changing the plan", async (body, message) => {
    const { auth, userId } = await signUp();
    const res = await call(choose, { method: "POST", headers: auth, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.message).toContain(message);
    expect(await db().select().from(subscriptions).where(eq(subscriptions.userId, userId))).toEqual([]);
  });

  it("answers NO_PACKAGE once this month's quota is used up, even under concurrent creates", async () => {
    const { auth, userId } = await signUp();
    await db().insert(plans).values({ id: "tiny", name: "Tiny", monthlySessionQuota: 3, selfServe: true });
    await call(choose, { method: "POST", headers: auth, body: { plan: "tiny" } });
    expect(await quotaError(userId)).toBeUndefined();
    const results = await Promise.all([quotaError(userId), quotaError(userId), quotaError(userId), quotaError(userId)]);
    expect(results.filter((e) => e === undefined)).toHaveLength(2);
    const error = results.find((e) => e !== undefined);
    expect(error?.code).toBe("NO_PACKAGE");
    expect(error?.message).toContain("allows 3 payment sessions a month");
    const view = await call(getPlan, { headers: auth });
    expect(view.body.data.usage).toMatchObject({ sessionsCreated: 3, remaining: 0 });
  });

  it("lets an operator grant a paid plan (in-process and with npm run admin)", async () => {
    const { email, auth } = await signUp();
    await grantPlan(db(), email.toUpperCase(), "pro");
    expect((await call(getPlan, { headers: auth })).body.data.plan.id).toBe("pro");
    await expect(grantPlan(db(), "nobody@example.com", "pro")).rejects.toThrow("no user with email nobody@example.com");
    await expect(grantPlan(db(), email, "platinum")).rejects.toThrow('unknown plan "platinum"');

    // The CLI against an embedded database folder.
    const dir = join(mkdtempSync(join(tmpdir(), "bscpay-admin-")), "pglite");
    const handle = openPglite(dir);
    await migrate(handle.db);
    await handle.db.insert(users).values({ email: "cli@example.com", passwordHash: "x" });
    await handle.close();
    const env = { ...process.env, PGLITE_DIR: dir, LOCAL_CHAIN: "off", LOG_LEVEL: "silent" };
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], { env, encoding: "utf8" });
    const granted = run("grant-plan", "cli@example.com", "enterprise");
    expect(granted.stderr).toBe("");
    expect(granted.status).toBe(0);
    expect(granted.stdout).toContain("granted plan enterprise to cli@example.com");
    const unknown = run("grant-plan", "ghost@example.com", "pro");
    expect(unknown.status).toBe(1);
    expect(unknown.stderr.trim()).toBe("no user with email ghost@example.com");
    const usage = run("frobnicate");
    expect(usage.status).toBe(1);
    expect(usage.stderr).toContain("usage: npm run admin");
    const check = openPglite(dir);
    const [row] = await check.db.select().from(subscriptions);
    expect(row).toMatchObject({ planId: "enterprise", status: "active" });
    await check.close();
  });

  it("requires a user", async () => {
    expect((await call(getPlan)).status).toBe(401);
    expect((await call(choose, { method: "POST", body: { plan: "starter" } })).status).toBe(401);
  });
});
