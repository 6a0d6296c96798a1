"use server";

import { revalidatePath } from "next/cache";
import { getConfig } from "../../../base/config";
import { readTokenMetadata } from "../../../domain/tokens/read-token-metadata";
import { tokenRefusal } from "../../../domain/tokens/reasons";
import { registerToken, type TokenView, toTokenView } from "../../../domain/tokens/register-token";
import { registerTokenSchema } from "../../../domain/tokens/schemas";
import { type ActionResult, runAction } from "../shared/server-action";

export async function registerTokenAction(input: unknown): Promise<ActionResult<TokenView & { created: boolean }>> {
  const result = await runAction("settings", registerTokenSchema, input, async ({ db, account }, data) => {
    const { token, created } = await registerToken(db, account.id, data);
    return { ...toTokenView(token), created };
  });
  revalidatePath("/dashboard/tokens");
  return result;
}

/** With OPEN_TOKEN_REGISTRATION: what the chain says about a contract, shown before saving it. */
export async function previewTokenAction(input: unknown): Promise<ActionResult<{ symbol: string; name: string; decimals: number }>> {
  return runAction("settings", registerTokenSchema, input, async (_ctx, data) => {
    if (!getConfig().openTokenRegistration)
      throw tokenRefusal("VALIDATION_ERROR", "token-not-in-catalogue", "this gateway accepts catalogue tokens only");
    return readTokenMetadata(data.network, data.contractAddress);
  });
}
