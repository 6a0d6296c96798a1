import { describe, expect, it } from "vitest";
import { POST as acceptInvite } from "@/app/api/user/invitations/accept/route";
import { POST as invite } from "@/app/api/user/invitations/route";
import { invitationContext, invitationTokenIn } from "@/lib/web/dashboard/members/invitation-context";
import { signUp } from "../helpers/accounts";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";

const db = useTestDatabase();
const config = () => useConfig({ NEXTAUTH_SECRET: "integration-test-secret-0123456789" });

describe("sign-up keeps an invitation's context", () => {
  it("names the account and the role of the invitation the sign-up was opened from, while it can be used", async () => {
    config();
    const owner = await signUp();
    const created = await call(invite, { method: "POST", headers: owner.auth, body: { role: "finance" } });
    const token: string = created.body.data.token;
    expect(invitationTokenIn(`/invite/${token}`)).toBe(token);

    expect(await invitationContext(db(), `/invite/${token}`)).toEqual({ accountLabel: owner.email, role: "finance" });
    // Anything else is the ordinary sign-up: another page, a malformed or unknown token.
    expect(await invitationContext(db(), "/dashboard")).toBeNull();
    expect(await invitationContext(db(), `/invite/${token}/x`)).toBeNull();
    expect(await invitationContext(db(), "/invite/short")).toBeNull();
    expect(await invitationContext(db(), `/invite/${"A".repeat(32)}`)).toBeNull();

    // Once used, the link offers nothing more (its own page says why).
    const staff = await signUp();
    expect((await call(acceptInvite, { method: "POST", headers: staff.auth, body: { token } })).status).toBe(200);
    expect(await invitationContext(db(), `/invite/${token}`)).toBeNull();
  });
});
