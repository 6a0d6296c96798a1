"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import {
  acceptInvitation,
  acceptInvitationSchema,
  createInvitation,
  createInvitationSchema,
  revokeInvitation,
} from "../../../accounts/members/invitations";
import {
  changeMemberRole,
  changeRoleSchema,
  removeMember,
  transferOwnership,
  transferOwnershipSchema,
} from "../../../accounts/members/manage-members";
import { resolvePrincipal } from "../../../accounts/members/principal";
import { chooseDashboardAccount } from "../../http/account-choice";
import { type ActionResult, runAction, runUserAction } from "../shared/server-action";

const userIdSchema = z.object({ userId: z.coerce.number().int().positive() });

/** The switcher: the dashboard acts in another account of the user's from the next request on. */
export async function switchAccountAction(accountId: number): Promise<ActionResult<{ accountId: number }>> {
  return runUserAction(z.object({ accountId: z.coerce.number().int().positive() }), { accountId }, async ({ db, user }, data) => {
    await resolvePrincipal(db, user, data.accountId); // a member of it, or FORBIDDEN
    await chooseDashboardAccount(data.accountId);
    return { accountId: data.accountId };
  });
}

export async function inviteMemberAction(input: unknown) {
  const result = await runAction("members", createInvitationSchema, input, ({ db, ...principal }, data) =>
    createInvitation(db, principal, data),
  );
  revalidatePath("/dashboard/members");
  return result;
}

export async function revokeInvitationAction(invitationId: number) {
  const result = await runAction(
    "members",
    z.object({ invitationId: z.coerce.number().int().positive() }),
    { invitationId },
    ({ db, ...principal }, data) => revokeInvitation(db, principal, data.invitationId),
  );
  revalidatePath("/dashboard/members");
  return result;
}

export async function changeRoleAction(input: unknown) {
  const result = await runAction("members", userIdSchema.and(changeRoleSchema), input, ({ db, ...principal }, data) =>
    changeMemberRole(db, principal, data.userId, data.role),
  );
  revalidatePath("/dashboard/members");
  return result;
}

export async function removeMemberAction(userId: number) {
  const result = await runAction("members", userIdSchema, { userId }, ({ db, ...principal }, data) =>
    removeMember(db, principal, data.userId),
  );
  revalidatePath("/dashboard/members");
  return result;
}

export async function transferOwnershipAction(input: unknown) {
  const result = await runAction("members", transferOwnershipSchema, input, ({ db, ...principal }, data) =>
    transferOwnership(db, principal, data.userId, data.code),
  );
  revalidatePath("/dashboard/members");
  return result;
}

/** The invitation page's Join: the signed-in user becomes a member, and the dashboard opens in that account. */
export async function acceptInvitationAction(token: string): Promise<ActionResult<{ accountId: number }>> {
  return runUserAction(acceptInvitationSchema, { token }, async ({ db, user, address }, data) => {
    const joined = await acceptInvitation(db, user, data.token, address);
    await chooseDashboardAccount(joined.accountId);
    return { accountId: joined.accountId };
  });
}
