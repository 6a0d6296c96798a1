import { eq } from "drizzle-orm";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { getDb } from "../../db";
import { type User, users } from "../../db/schema";
import { authOptions } from "./auth-options";
import { isCurrentVersion } from "./bearer-token";

/** The signed-in dashboard user (next-auth session cookie), or null. Callers come through an edge that started the process (lib/web/http/page.ts, runAction, withUser). */
export async function currentUser(): Promise<User | null> {
  const session = await getServerSession(authOptions());
  const claims = session?.user as { id?: string; ver?: number } | undefined;
  const id = Number(claims?.id);
  if (!Number.isSafeInteger(id)) return null;
  const [user] = await (await getDb()).select().from(users).where(eq(users.id, id));
  // A session from before a password change (or "sign out everywhere") is over.
  return user && isCurrentVersion(claims ?? {}, user) ? user : null;
}

/**
 * The signed-in user of a dashboard page, or a redirect to /login. The layout checks too, but a
 * page renders alongside its layout: a session that ended (password changed elsewhere) must not
 * make the page fail first.
 */
export async function requireUser(): Promise<User> {
  const user = await currentUser();
  if (!user) redirect("/login");
  return user;
}
