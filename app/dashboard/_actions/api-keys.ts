"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { type ApiKeyView, createApiKeySchema, issueApiKey, revokeApiKey } from "@/lib/accounts/api-keys/manage-api-keys";
import { requireSecondFactor } from "@/lib/accounts/users/two-factor";
import { type ActionResult, runAction } from "@/lib/web/http/server-action";

export async function createApiKeyAction(input: unknown): Promise<ActionResult<ApiKeyView & { key: string }>> {
  const result = await runAction(createApiKeySchema, input, async ({ db, user }, { name, kind, scopes, code }) => {
    await requireSecondFactor(db, user, code);
    return issueApiKey(db, user.id, { name, kind, scopes });
  });
  revalidatePath("/dashboard/api-keys");
  return result;
}

export async function revokeApiKeyAction(id: number): Promise<ActionResult<ApiKeyView>> {
  const result = await runAction(z.object({ id: z.coerce.number().int().positive() }), { id }, ({ db, user }, data) =>
    revokeApiKey(db, user.id, data.id),
  );
  revalidatePath("/dashboard/api-keys");
  return result;
}
