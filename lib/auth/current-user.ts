import { eq } from "drizzle-orm";
import { getServerSession } from "next-auth";
import { getDb } from "../db";
import { users, type User } from "../db/schema";
import { ensureStarted } from "../startup";
import { authOptions } from "./auth-options";

/** The signed-in dashboard user (next-auth session cookie), or null. */
export async function currentUser(): Promise<User | null> {
  await ensureStarted();
  const session = await getServerSession(authOptions());
  const id = Number((session?.user as { id?: string } | undefined)?.id);
  if (!Number.isSafeInteger(id)) return null;
  const [user] = await (await getDb()).select().from(users).where(eq(users.id, id));
  return user ?? null;
}
