/** The API keys page's loader: it opens the database itself, so app/ never holds a handle. */
import { listApiKeys } from "../../../accounts/api-keys/manage-api-keys";
import { getDb } from "../../../db";

/** `/dashboard/api-keys`: the user's keys, revoked ones included. */
export async function loadApiKeysPage(userId: number) {
  return listApiKeys(await getDb(), userId);
}
