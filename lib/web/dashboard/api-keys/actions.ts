"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { type ApiKeyView, createApiKeySchema, issueApiKey, revokeApiKey } from "../../../accounts/api-keys/manage-api-keys";
import { byMember } from "../../../accounts/audit/audit-origin";
import { type ActionResult, runAction } from "../shared/server-action";

/** The same rules as POST /api/user/api-keys: the key is the member's, bounded by their role, a money scope with their code. */
export async function createApiKeyAction(input: unknown): Promise<ActionResult<ApiKeyView & { key: string }>> {
  const result = await runAction("developer", createApiKeySchema, input, ({ db, ...principal }, data) => issueApiKey(db, principal, data));
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
