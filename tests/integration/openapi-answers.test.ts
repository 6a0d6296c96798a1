/**
 * The OpenAPI document's team, approval, key, domain and public-page operations describe what their
 * routes really answer: each real answer parses, unchanged, with the schema the document gives its
 * status (zod drops keys it does not know, so a field the route adds and the document lacks fails
 * as surely as a missing one), and each refusal's reason is one of those its operation lists.
 * PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { GET as linkPage } from "@/app/api/links/[slug]/route";
import { GET as refundPage } from "@/app/api/refund/[refundId]/route";
import { GET as listAccounts } from "@/app/api/user/accounts/route";
import { DELETE as revokeKey } from "@/app/api/user/api-keys/[id]/route";
import { PUT as setPolicy } from "@/app/api/user/approval-policies/[tokenId]/route";
import { GET as listPolicies } from "@/app/api/user/approval-policies/route";
import { POST as approve } from "@/app/api/user/approvals/[id]/approve/route";
import { POST as reject } from "@/app/api/user/approvals/[id]/reject/route";
import { GET as listApprovals } from "@/app/api/user/approvals/route";
import { DELETE as deleteDomain } from "@/app/api/user/domains/[id]/route";
import { POST as addDomain } from "@/app/api/user/domains/route";
import { DELETE as revokeInvite } from "@/app/api/user/invitations/[id]/route";
import { POST as acceptInvite } from "@/app/api/user/invitations/accept/route";
import { POST as invite, GET as listInvites } from "@/app/api/user/invitations/route";
import { PATCH as changeRole, DELETE as removeMember } from "@/app/api/user/members/[userId]/route";
import { GET as listMembers } from "@/app/api/user/members/route";
import { POST as transfer } from "@/app/api/user/members/transfer-ownership/route";
import { POST as createLink } from "@/app/api/user/payment-links/route";
import { documentPaths } from "@/lib/web/openapi/document";
import { type Merchant, newApiKey, setUpMerchant, signUp } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { type CallResult, call } from "../helpers/http";

useTestDatabase();
const chain = useTestChain({ chainId: 56 });

type Json = Record<string, any>;
let owner: Merchant;
let staff: Awaited<ReturnType<typeof signUp>>;
const as = (who: { auth: Record<string, string> }, accountId = owner.userId) => ({ ...who.auth, "x-account-id": String(accountId) });

/** The answer is the one the document describes for this status (and the status is one it lists). */
function expectDocumented(path: string, method: string, res: CallResult, status: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const media = (documentPaths as Json)[path][method].responses[String(status)]?.content["application/json"];
  expect(media, `${method.toUpperCase()} ${path} documents no ${status}`).toBeDefined();
  const parsed = (media.schema as z.ZodType).safeParse(res.body);
  expect(parsed.error?.issues, `${method.toUpperCase()} ${path} ${status}`).toBeUndefined();
  expect(parsed.data).toEqual(res.body);
  return res.body;
}

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
  owner = await setUpMerchant({ contractAddress: await deployTestToken(chain().url, { symbol: "DOC" }), network: "bsc" });
  staff = await signUp();
});

describe("documented answers", () => {
  it("of members, invitations and accounts", async () => {
    const link = expectDocumented(
      "/api/user/invitations",
      "post",
      await call(invite, { method: "POST", headers: owner.auth, body: { role: "finance", note: "Ana" } }),
      201,
    ).data;
    expectDocumented("/api/user/invitations", "get", await call(listInvites, { headers: owner.auth }), 200);
    expectDocumented(
      "/api/user/invitations/accept",
      "post",
      await call(acceptInvite, { method: "POST", headers: staff.auth, body: { token: link.token } }),
      200,
    );
    const used = await call(acceptInvite, { method: "POST", headers: staff.auth, body: { token: link.token } });
    expect(expectDocumented("/api/user/invitations/accept", "post", used, 400).error.reason).toBe("invitation-used");
    expectDocumented("/api/user/accounts", "get", await call(listAccounts, { headers: staff.auth }), 200);
    expectDocumented("/api/user/members", "get", await call(listMembers, { headers: as(staff) }), 200);

    const member = "/api/user/members/{userId}";
    const staffId = { userId: String(staff.userId) };
    const toDeveloper = await call(changeRole, { method: "PATCH", headers: owner.auth, params: staffId, body: { role: "developer" } });
    expect(expectDocumented(member, "patch", toDeveloper, 200).data.role).toBe("developer");
    const ownerId = { userId: String(owner.userId) };
    const fixed = await call(changeRole, { method: "PATCH", headers: owner.auth, params: ownerId, body: { role: "viewer" } });
    expect(expectDocumented(member, "patch", fixed, 400).error.reason).toBe("owner-is-fixed");
    const noTwoFactor = await call(transfer, { method: "POST", headers: owner.auth, body: { userId: staff.userId } });
    expect(expectDocumented("/api/user/members/transfer-ownership", "post", noTwoFactor, 400).error.reason).toBe(
      "new-owner-needs-two-factor",
    );

    // The account and role refusals every member operation lists.
    const forbidden = await call(invite, { method: "POST", headers: as(staff), body: { role: "viewer" } });
    expect(expectDocumented("/api/user/invitations", "post", forbidden, 403).error.reason).toBe("role-forbids");
    const malformed = await call(listMembers, { headers: { ...staff.auth, "x-account-id": "shop" } });
    expect(expectDocumented("/api/user/members", "get", malformed, 400).error.reason).toBe("account-id-invalid");
    const stranger = await call(listMembers, { headers: as(staff, 2_000_000_000) });
    expect(expectDocumented("/api/user/members", "get", stranger, 403).error.reason).toBe("not-a-member");

    const spare = expectDocumented(
      "/api/user/invitations",
      "post",
      await call(invite, { method: "POST", headers: owner.auth, body: { role: "viewer" } }),
      201,
    );
    const revoke = (id: number) => call(revokeInvite, { method: "DELETE", headers: owner.auth, params: { id: String(id) } });
    expect(expectDocumented("/api/user/invitations/{id}", "delete", await revoke(spare.data.invitationId), 200).data.status).toBe(
      "revoked",
    );
    expect(expectDocumented("/api/user/invitations/{id}", "delete", await revoke(999_999), 404).error.reason).toBe("invitation-invalid");

    expectDocumented(member, "delete", await call(removeMember, { method: "DELETE", headers: owner.auth, params: staffId }), 200);
    const gone = await call(removeMember, { method: "DELETE", headers: owner.auth, params: staffId });
    expect(expectDocumented(member, "delete", gone, 404).error.reason).toBe("member-not-found");
  });

  it("of approvals and approval policies", async () => {
    expectDocumented("/api/user/approval-policies", "get", await call(listPolicies, { headers: owner.auth }), 200);
    const policy = "/api/user/approval-policies/{tokenId}";
    const put = (tokenId: number, body: Json) =>
      call(setPolicy, { method: "PUT", headers: owner.auth, params: { tokenId: String(tokenId) }, body });
    expect(expectDocumented(policy, "put", await put(owner.tokenId, { perRequest: "1000", perDay: "5000" }), 200).data).toMatchObject({
      perRequest: "1000",
      perDay: "5000",
    });
    const below = await put(owner.tokenId, { perRequest: "1000", perDay: "10" });
    expect(expectDocumented(policy, "put", below, 400).error.reason).toBe("approval-limit-invalid");
    expect(expectDocumented(policy, "put", await put(999_999, { perRequest: null, perDay: null }), 404).error.reason).toBe("not-found");

    expectDocumented("/api/user/approvals", "get", await call(listApprovals, { headers: owner.auth }), 200);
    const badStatus = await call(listApprovals, { headers: owner.auth, path: "/api/user/approvals?status=sent" });
    expect(expectDocumented("/api/user/approvals", "get", badStatus, 400).error.reason).toBe("invalid-request");
    const unknown = { id: "apr_000000000000000000000000" };
    const approved = await call(approve, { method: "POST", headers: owner.auth, params: unknown, body: { code: "123456" } });
    expect(expectDocumented("/api/user/approvals/{id}/approve", "post", approved, 404).error.reason).toBe("not-found");
    const rejected = await call(reject, { method: "POST", headers: owner.auth, params: unknown, body: {} });
    expect(expectDocumented("/api/user/approvals/{id}/reject", "post", rejected, 404).error.reason).toBe("not-found");
  });

  it("of revoking an API key and removing a domain", async () => {
    const key = await newApiKey(owner.auth, "short-lived");
    const revoke = (id: number) => call(revokeKey, { method: "DELETE", headers: owner.auth, params: { id: String(id) } });
    expect(expectDocumented("/api/user/api-keys/{id}", "delete", await revoke(key.id), 200).data.revokedAt).toEqual(expect.any(String));
    expect(expectDocumented("/api/user/api-keys/{id}", "delete", await revoke(999_999), 404).error.reason).toBe("not-found");

    const spare = await call(addDomain, { method: "POST", headers: owner.auth, body: { domain: "https://spare.example.com" } });
    const remove = (id: number) => call(deleteDomain, { method: "DELETE", headers: owner.auth, params: { id: String(id) } });
    expectDocumented("/api/user/domains/{id}", "delete", await remove(spare.body.data.domainId), 200);
    expect(expectDocumented("/api/user/domains/{id}", "delete", await remove(spare.body.data.domainId), 404).error.reason).toBe(
      "not-found",
    );
  });

  it("of the public pages", async () => {
    const link = await call(createLink, {
      method: "POST",
      headers: owner.auth,
      body: { title: "Docs", tokenId: owner.tokenId, amount: "3" },
    });
    expect(link.status).toBe(201);
    expectDocumented("/api/links/{slug}", "get", await call(linkPage, { params: { slug: link.body.data.slug } }), 200);
    expectDocumented("/api/links/{slug}", "get", await call(linkPage, { params: { slug: "no-such-link" } }), 404);
    const claim = (refundId: string) => call(refundPage, { params: { refundId } });
    expect(expectDocumented("/api/refund/{refundId}", "get", await claim("42"), 400).error.reason).toBe("invalid-request");
    const unknown = await claim("0b7c5c3e-2a8f-4a8e-9d7e-3f3a1c1b2d4e");
    expect(expectDocumented("/api/refund/{refundId}", "get", unknown, 404).error.reason).toBe("not-found");
  });
});
