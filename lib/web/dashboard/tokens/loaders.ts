/** The tokens page's loader: it opens the database itself, so app/ never holds a handle. */
import { getDb } from "../../../db";
import { acceptedTokensFor } from "../../../domain/tokens/catalogue-for-merchants";
import { listTokens } from "../../../domain/tokens/list-tokens";

/** `/dashboard/tokens`: the operator's catalogue as the user may accept it, and the user's tokens. */
export async function loadTokensPage(userId: number) {
  const db = await getDb();
  const [catalogue, mine] = await Promise.all([acceptedTokensFor(db, userId), listTokens(db, userId)]);
  return { catalogue, mine };
}
