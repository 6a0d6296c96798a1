"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { type ApiKeyView, createApiKeySchema, issueApiKey, revokeApiKey } from "@/lib/accounts/api-keys/manage-api-keys";
import { requireSecondFactor } from "@/lib/accounts/users/two-factor";
import { type ActionResult, runAction } from "@/lib/web/http/server-action";

export async function createApiKeyAction(input: unknown): Promise<ActionResult<ApiKeyView & { key: string }>> {
  const result = await runAction("developer", createApiKeySchema, input, async ({ db, account, member }, { name, kind, scopes, code }) => {
    await requireSecondFactor(db, member, code);
    return issueApiKey(db, account.id, { name, kind, scopes });
  });
  revalidatePath("/dashboard/api-keys");
  return result;
}

export async function revokeApiKeyAction(id: number): Promise<ActionResult<ApiKeyView>> {
  const result = await runAction("developer", z.object({ id: z.coerce.number().int().positive() }), { id }, ({ db, account }, data) =>
    revokeApiKey(db, account.id, data.id),
  );
  revalidatePath("/dashboard/api-keys");
  return result;
}
