"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { type ApiKeyView, createApiKeySchema, issueApiKey, revokeApiKey } from "@/lib/accounts/api-keys/manage-api-keys";
import { byMember } from "@/lib/accounts/audit/audit-origin";
import { requireSecondFactor } from "@/lib/accounts/users/two-factor";
import { type ActionResult, runAction } from "@/lib/web/http/server-action";

export async function createApiKeyAction(input: unknown): Promise<ActionResult<ApiKeyView & { key: string }>> {
  const result = await runAction("developer", createApiKeySchema, input, async ({ db, ...principal }, { name, kind, scopes, code }) => {
    await requireSecondFactor(db, principal.member, code);
    return issueApiKey(db, principal.account.id, { name, kind, scopes }, byMember(principal));
  });
  revalidatePath("/dashboard/api-keys");
  return result;
}

export async function revokeApiKeyAction(id: number): Promise<ActionResult<ApiKeyView>> {
  const result = await runAction("developer", z.object({ id: z.coerce.number().int().positive() }), { id }, ({ db, ...principal }, data) =>
    revokeApiKey(db, principal.account.id, data.id, byMember(principal)),
  );
  revalidatePath("/dashboard/api-keys");
  return result;
}
