/**
 * Every /api/user route × every role: a role without the route's permission gets 403
 * FORBIDDEN (`role-forbids`) and changes nothing; a role with it gets 2xx. A user who is not a
 * member of the account named by X-Account-Id gets 403 `not-a-member` everywhere. A new route that
 * is not in the matrix fails the coverage test.
 */

import { randomBytes } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { eq } from "drizzle-orm";
import { privateKeyToAddress } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/accounts/api-keys/create-api-key";
import { asOwner } from "@/lib/accounts/members/principal";
import { type Permission, ROLE_PERMISSIONS } from "@/lib/accounts/members/roles";
import { accountMembers, approvals, domains, MEMBER_ROLES, type MemberRole, users } from "@/lib/db/schema";
import { addDomain } from "@/lib/domain/merchant-domains/add-domain";
import { updateDomain } from "@/lib/domain/merchant-domains/manage-domains";
import { createPaymentLink } from "@/lib/domain/payment-links/manage-links";
import { queuePing } from "@/lib/domain/webhooks/deliveries";
import { recordAwaitingWithdrawal } from "@/lib/domain/withdrawals/withdrawal-approvals";
import { type Merchant, setUpMerchant, signUp } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";
import { withTwoFactor } from "../helpers/members";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });

type Handler = Parameters<typeof call>[0];
interface Fixture {
  params?: Record<string, string>;
  body?: unknown;
}
interface Entry {
  route: string;
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  permission: Permission;
  /** Makes what one call needs (a key to revoke, a member to remove), in the account, before the call. */
  setup?: () => Promise<Fixture>;
  /** The status a role with the permission gets when it is not 2xx (the call itself refuses for its own reason). */
  allowedStatus?: number;
  /** With allowedStatus: the reason of that refusal (never role-forbids). */
  allowedReason?: string;
}

let merchant: Merchant;
let token: `0x${string}`;
let n = 0;
const unique = () => ++n;
const domainParams = () => ({ params: { id: String(merchant.domainId) } });

/** A withdrawal of the API key waiting for approval (nothing on chain): its approval's id. */
/** Who asks for the waiting withdrawals: a finance member of its own, so that no tested role is the requester. */
let requester: number | undefined;

async function awaitingApproval(): Promise<string> {
  requester ??= (await memberWith("finance")).userId;
  const { withdrawal } = await recordAwaitingWithdrawal(
    db(),
    { userId: merchant.userId, apiKeyId: null, memberId: requester },
    { domainId: merchant.domainId, tokenId: merchant.tokenId, toAddress: "0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097", amount: "1" },
  );
  const [approval] = await db().select().from(approvals).where(eq(approvals.subjectId, withdrawal.id));
  if (!approval) throw new Error("no approval recorded");
  return approval.id;
}

/** A user of its own, made a member of the merchant's account with `role`. */
async function memberWith(role: MemberRole) {
  const user = await signUp();
  if (role !== "owner") await db().insert(accountMembers).values({ accountId: merchant.userId, userId: user.userId, role });
  return user;
}

const MATRIX: Entry[] = [
  { route: "api-keys", method: "GET", permission: "read" },
  { route: "api-keys", method: "POST", permission: "developer", setup: async () => ({ body: { name: `k${unique()}` } }) },
  {
    route: "api-keys/[id]",
    method: "DELETE",
    permission: "developer",
    setup: async () => ({ params: { id: String((await createApiKey(db(), merchant.userId, `r${unique()}`)).record.id) } }),
  },
  { route: "domains", method: "GET", permission: "read" },
  {
    route: "domains",
    method: "POST",
    permission: "developer",
    setup: async () => ({ body: { domain: `https://shop${unique()}.example.com` } }),
  },
  { route: "domains/[id]", method: "GET", permission: "read", setup: async () => domainParams() },
  {
    route: "domains/[id]",
    method: "PATCH",
    permission: "developer",
    setup: async () => ({ ...domainParams(), body: { webhookUrl: `https://hooks.example.com/${unique()}` } }),
  },
  {
    route: "domains/[id]",
    method: "PATCH",
    permission: "payout-targets",
    setup: async () => ({ ...domainParams(), body: { payoutAddress: privateKeyToAddress(`0x${randomBytes(32).toString("hex")}`) } }),
  },
  {
    route: "domains/[id]",
    method: "PATCH",
    permission: "settings",
    setup: async () => ({ ...domainParams(), body: { fiatUnderpayBps: unique() } }),
  },
  {
    route: "domains/[id]",
    method: "DELETE",
    permission: "developer",
    setup: async () => ({ params: { id: String((await addDomain(db(), merchant.userId, `https://gone${unique()}.example.com`)).id) } }),
  },
  // Passes the role check, then finds no change waiting: cancelling one is tested in payout-change.test.ts.
  {
    route: "domains/[id]/payout-change",
    method: "DELETE",
    permission: "payout-targets",
    allowedStatus: 400,
    setup: async () => domainParams(),
  },
  { route: "domains/[id]/webhook-deliveries", method: "GET", permission: "read", setup: async () => domainParams() },
  // Seeing or replacing a signing secret needs the member's two-factor code: these members have none on.
  {
    route: "domains/[id]/webhook-secret",
    method: "POST",
    permission: "developer",
    setup: async () => ({ ...domainParams(), body: {} }),
    allowedStatus: 403,
    allowedReason: "webhook-secret-needs-two-factor",
  },
  {
    route: "domains/[id]/webhook-secret/reveal",
    method: "POST",
    permission: "developer",
    setup: async () => ({ ...domainParams(), body: {} }),
    allowedStatus: 403,
    allowedReason: "webhook-secret-needs-two-factor",
  },
  { route: "domains/[id]/webhook-test", method: "POST", permission: "developer", setup: async () => domainParams() },
  { route: "gas", method: "GET", permission: "read" },
  { route: "package", method: "GET", permission: "read" },
  { route: "package", method: "POST", permission: "settings", setup: async () => ({ body: { plan: "starter" } }) },
  { route: "payment-links", method: "GET", permission: "read" },
  {
    route: "payment-links",
    method: "POST",
    permission: "payments",
    setup: async () => ({ body: { title: `Link ${unique()}`, tokenId: merchant.tokenId, amount: "10" } }),
  },
  ...(["GET", "PATCH", "DELETE"] as const).map(
    (method): Entry => ({
      route: "payment-links/[id]",
      method,
      permission: method === "GET" ? "read" : "payments",
      setup: async () => {
        const [owner] = await db().select().from(users).where(eq(users.id, merchant.userId));
        const link = await createPaymentLink(db(), asOwner(owner!), {
          title: `L${unique()}`,
          tokenId: merchant.tokenId,
          amount: "5",
        } as never);
        return { params: { id: String(link.linkId) }, body: method === "PATCH" ? { title: "Renamed" } : undefined };
      },
    }),
  ),
  { route: "settings", method: "GET", permission: "read" },
  { route: "settings", method: "PATCH", permission: "settings", setup: async () => ({ body: { accountCurrency: "EUR" } }) },
  // The owner's alone; the owner here has no two-factor, so even their call is refused for that (two-factor-rule.test.ts turns it on).
  {
    route: "settings",
    method: "PATCH",
    permission: "members",
    allowedStatus: 403,
    allowedReason: "two-factor-required",
    setup: async () => ({ body: { membersNeedTwoFactor: true } }),
  },
  { route: "tokens", method: "GET", permission: "read" },
  { route: "tokens", method: "POST", permission: "settings", setup: async () => ({ body: { contractAddress: token, network: "bsc" } }) },
  {
    route: "webhook-deliveries/[id]/redeliver",
    method: "POST",
    permission: "developer",
    setup: async () => {
      // A domain of its own each time: test events waiting per endpoint are bounded.
      const domain = await addDomain(db(), merchant.userId, `https://hooked${unique()}.example.com`);
      const [owner] = await db().select().from(users).where(eq(users.id, merchant.userId));
      await updateDomain(db(), asOwner(owner!), domain.id, { webhookUrl: `https://hooks.example.com/${unique()}` });
      const [withHook] = await db().select().from(domains).where(eq(domains.id, domain.id));
      const ping = await queuePing(db(), withHook!);
      return { params: { id: String(ping.deliveryId) } };
    },
  },
  { route: "members", method: "GET", permission: "read" },
  { route: "audit", method: "GET", permission: "audit" },
  {
    route: "members/[userId]",
    method: "PATCH",
    permission: "members",
    setup: async () => ({ params: { userId: String((await memberWith("viewer")).userId) }, body: { role: "finance" } }),
  },
  {
    route: "members/[userId]",
    method: "DELETE",
    permission: "members",
    setup: async () => ({ params: { userId: String((await memberWith("viewer")).userId) } }),
  },
  // The owner's own call is refused for its body (the target has no two-factor): ownership moving is tested in members.test.ts.
  {
    route: "members/transfer-ownership",
    method: "POST",
    permission: "members",
    allowedStatus: 400,
    setup: async () => ({ body: { userId: (await memberWith("admin")).userId } }),
  },
  { route: "invitations", method: "GET", permission: "members" },
  { route: "invitations", method: "POST", permission: "members", setup: async () => ({ body: { role: "viewer" } }) },
  {
    route: "invitations/[id]",
    method: "DELETE",
    permission: "members",
    setup: async () => {
      const owner = await call(await handlerOf("invitations", "POST"), {
        method: "POST",
        headers: await authOf("owner"),
        body: { role: "viewer" },
      });
      return { params: { id: String(owner.body.data.invitationId) } };
    },
  },
  { route: "approvals", method: "GET", permission: "read" },
  // The members here have no two-factor: approving is refused for that (approvals.test.ts approves with codes).
  {
    route: "approvals/[id]/approve",
    method: "POST",
    permission: "approve",
    allowedStatus: 403,
    allowedReason: "approver-needs-two-factor",
    setup: async () => ({ params: { id: await awaitingApproval() }, body: {} }),
  },
  {
    route: "approvals/[id]/reject",
    method: "POST",
    permission: "approve",
    setup: async () => ({ params: { id: await awaitingApproval() }, body: { reason: "no" } }),
  },
  { route: "approval-policies", method: "GET", permission: "read" },
  {
    route: "approval-policies/[tokenId]",
    method: "PUT",
    permission: "payout-targets",
    setup: async () => ({ params: { tokenId: String(merchant.tokenId) }, body: { perRequest: "1000000", perDay: null } }),
  },
];

/** Routes of the user themself, in no account (or in any: sign-out-everywhere), and the two that sign in. */
const NOT_IN_AN_ACCOUNT = new Set([
  "POST register",
  "POST token",
  "POST password",
  "POST two-factor",
  "POST two-factor/confirm",
  "POST sign-out-everywhere",
  "POST invitations/accept",
  "GET accounts",
]);

const ROUTES_DIR = join(process.cwd(), "app/api/user");
async function handlerOf(route: string, method: string): Promise<Handler> {
  const module = (await import(/* @vite-ignore */ join(ROUTES_DIR, route, "route.ts"))) as Record<string, Handler>;
  const handler = module[method];
  if (!handler) throw new Error(`${method} ${route} is not exported`);
  return handler;
}

const tokens = new Map<MemberRole, Record<string, string>>();
async function authOf(role: MemberRole) {
  return { ...tokens.get(role)!, "x-account-id": String(merchant.userId) };
}

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return routeFiles(path);
    return name === "route.ts" ? [relative(ROUTES_DIR, dir)] : [];
  });
}

describe("every /api/user route × every role", () => {
  beforeAll(async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
    token = await deployTestToken(chain().url);
    merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    await call(await handlerOf("domains/[id]", "PATCH"), {
      method: "PATCH",
      headers: merchant.auth,
      params: { id: String(merchant.domainId) },
      body: { webhookUrl: "https://hooks.example.com/start" },
    });
    tokens.set("owner", merchant.auth);
    for (const role of MEMBER_ROLES.filter((r) => r !== "owner")) tokens.set(role, (await memberWith(role)).auth);
  }, 120_000);

  it("lists every route a role could be refused", async () => {
    const exported: string[] = [];
    for (const route of routeFiles(ROUTES_DIR)) {
      const module = (await import(/* @vite-ignore */ join(ROUTES_DIR, route, "route.ts"))) as Record<string, unknown>;
      for (const method of ["GET", "POST", "PATCH", "PUT", "DELETE"]) if (module[method]) exported.push(`${method} ${route}`);
    }
    const covered = new Set([...MATRIX.map((e) => `${e.method} ${e.route}`), ...NOT_IN_AN_ACCOUNT]);
    expect(exported.filter((r) => !covered.has(r))).toEqual([]);
  });

  for (const entry of MATRIX) {
    for (const role of MEMBER_ROLES) {
      const allowed = ROLE_PERMISSIONS[role].includes(entry.permission);
      it(`${entry.method} ${entry.route} (${entry.permission}) as ${role} → ${allowed ? "allowed" : "403"}`, async () => {
        const fixture = (await entry.setup?.()) ?? {};
        const res = await call(await handlerOf(entry.route, entry.method), {
          method: entry.method,
          headers: await authOf(role),
          params: fixture.params,
          body: fixture.body,
        });
        if (allowed) {
          if (entry.allowedReason) expect(res.body.error.reason).toBe(entry.allowedReason);
          if (entry.allowedStatus) expect(res.status, JSON.stringify(res.body)).toBe(entry.allowedStatus);
          else expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
        } else {
          expect(res.status).toBe(403);
          expect(res.body.error).toMatchObject({ code: "FORBIDDEN", reason: "role-forbids" });
        }
      });
    }
  }

  it("answers 403 not-a-member to a user outside the account, on every route, whatever it names", async () => {
    const stranger = await signUp();
    for (const entry of MATRIX) {
      const res = await call(await handlerOf(entry.route, entry.method), {
        method: entry.method,
        headers: { ...stranger.auth, "x-account-id": String(merchant.userId) },
        params: { id: String(merchant.domainId), userId: String(merchant.userId) },
        body: entry.method === "GET" ? undefined : {},
      });
      expect(res.status, `${entry.method} ${entry.route}`).toBe(403);
      expect(res.body.error.reason).toBe("not-a-member");
    }
  });

  it("without X-Account-Id a member acts in their home account, which holds none of the other account's data", async () => {
    const res = await call(await handlerOf("domains", "GET"), { headers: tokens.get("admin") });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    const other = await call(await handlerOf("domains/[id]", "GET"), {
      headers: tokens.get("admin"),
      params: { id: String(merchant.domainId) },
    });
    expect(other.status).toBe(404);
  });

  it("refuses a malformed X-Account-Id", async () => {
    for (const value of ["abc", "0", "-1", "1.5", "99999999999"]) {
      const res = await call(await handlerOf("domains", "GET"), { headers: { ...merchant.auth, "x-account-id": value } });
      expect(res.status).toBe(400);
      expect(res.body.error.reason).toBe("account-id-invalid");
    }
  });

  describe("what POST /api/user/api-keys grants each role (a key never does more than its maker)", () => {
    const ALL = ["payments:write", "payments:read", "refunds", "withdrawals", "payouts"];
    /** Per role, without two-factor and with it (a code given): the default scopes, or the refusal; then what asking for every scope answers. */
    const EXPECTED: Record<MemberRole, { plain: string[] | string; enrolled: string[] | string; all: string; allEnrolled: string }> = {
      owner: { plain: ["payments:write", "payments:read"], enrolled: ALL, all: "two-factor-required", allEnrolled: "201" },
      admin: { plain: ["payments:write", "payments:read"], enrolled: ALL, all: "two-factor-required", allEnrolled: "201" },
      developer: { plain: ["payments:read"], enrolled: ["payments:read"], all: "scope-exceeds-role", allEnrolled: "scope-exceeds-role" },
      finance: { plain: "role-forbids", enrolled: "role-forbids", all: "role-forbids", allEnrolled: "role-forbids" },
      viewer: { plain: "role-forbids", enrolled: "role-forbids", all: "role-forbids", allEnrolled: "role-forbids" },
    };
    const outcome = (res: { status: number; body: any }) => (res.status === 201 ? "201" : res.body.error.reason);

    for (const role of MEMBER_ROLES) {
      it(`${role}: by default ${JSON.stringify(EXPECTED[role].plain)}, with two-factor ${JSON.stringify(EXPECTED[role].enrolled)}; every scope → ${EXPECTED[role].all} / ${EXPECTED[role].allEnrolled}`, async () => {
        const handler = await handlerOf("api-keys", "POST");
        const person = role === "owner" ? await signUp() : await memberWith(role);
        const accountId = role === "owner" ? person.userId : merchant.userId;
        const plainAuth = { ...person.auth, "x-account-id": String(accountId) };
        const plain = await call(handler, { method: "POST", headers: plainAuth, body: { name: "default" } });
        expect(plain.status === 201 ? plain.body.data.scopes : plain.body.error.reason).toEqual(EXPECTED[role].plain);
        const all = await call(handler, { method: "POST", headers: plainAuth, body: { name: "all", scopes: ALL } });
        expect(outcome(all)).toBe(EXPECTED[role].all);

        const { own, code } = await withTwoFactor(person.userId, person.password);
        const auth = { ...own, "x-account-id": String(accountId) };
        const enrolled = await call(handler, { method: "POST", headers: auth, body: { name: "default", code: await code() } });
        expect(enrolled.status === 201 ? enrolled.body.data.scopes : enrolled.body.error.reason).toEqual(EXPECTED[role].enrolled);
        const allEnrolled = await call(handler, { method: "POST", headers: auth, body: { name: "all", scopes: ALL, code: await code() } });
        expect(outcome(allEnrolled)).toBe(EXPECTED[role].allEnrolled);
      });
    }
  });

  it("a removed member loses the account at once, their bearer token still signs them in elsewhere", async () => {
    const leaving = await memberWith("finance");
    const headers = { ...leaving.auth, "x-account-id": String(merchant.userId) };
    expect((await call(await handlerOf("gas", "GET"), { headers })).status).toBe(200);
    await call(await handlerOf("members/[userId]", "DELETE"), {
      method: "DELETE",
      headers: await authOf("owner"),
      params: { userId: String(leaving.userId) },
    });
    expect((await call(await handlerOf("gas", "GET"), { headers })).body.error.reason).toBe("not-a-member");
    expect((await call(await handlerOf("gas", "GET"), { headers: leaving.auth })).status).toBe(200);
    expect((await db().select().from(users).where(eq(users.id, leaving.userId))).length).toBe(1);
  });
});
