import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db";
import { tokens } from "../../db/schema";
import { type TokenView, toTokenView } from "./register-token";

export async function listTokens(db: Db, userId: number): Promise<TokenView[]> {
  const rows = await db.select().from(tokens).where(eq(tokens.userId, userId)).orderBy(asc(tokens.id));
  return rows.map(toTokenView);
}
