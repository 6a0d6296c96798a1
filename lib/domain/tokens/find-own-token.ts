/**
 * A user's token by id. Token rows never change once registered (there is no update or delete),
 * so they are kept in a bounded in-process cache: payment/create reads one on every call.
 */

import { and, eq } from "drizzle-orm";
import type { Db } from "../../db";
import { type Token, tokens } from "../../db/schema";

const MAX_CACHED = 10_000;
const CACHE_KEY = Symbol.for("bsc-pay.token-cache");
type Holder = { [CACHE_KEY]?: Map<number, Token> };

function cache(): Map<number, Token> {
  const holder = globalThis as Holder;
  holder[CACHE_KEY] ??= new Map();
  return holder[CACHE_KEY];
}

export async function findOwnToken(db: Db, userId: number, tokenId: number): Promise<Token | undefined> {
  const cached = cache().get(tokenId);
  if (cached) return cached.userId === userId ? cached : undefined;
  const [token] = await db
    .select()
    .from(tokens)
    .where(and(eq(tokens.id, tokenId), eq(tokens.userId, userId)));
  if (token) {
    // biome-ignore lint/style/noNonNullAssertion: the cache holds at least MAX_CACHED (> 0) entries here, so it has a first key
    if (cache().size >= MAX_CACHED) cache().delete(cache().keys().next().value!);
    cache().set(tokenId, token);
  }
  return token;
}
