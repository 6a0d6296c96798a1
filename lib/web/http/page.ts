/**
 * Every server-rendered page reads its data through here, as every route goes through withErrors
 * and every dashboard form through runAction: start-up first, then the loader. A record that is
 * not there (the loader answers null, or refuses with NOT_FOUND) is the page's 404.
 */

import { notFound } from "next/navigation";
import { currentUser, requireUser } from "../../accounts/auth/current-user";
import { AppError } from "../../base/errors";
import { type Db, getDb } from "../../db";
import type { User } from "../../db/schema";
import { ensureStarted } from "../../ops/startup/startup";

/** A page anyone may open (the checkout, a refund claim, a payment link). */
export async function withPage<T>(load: (ctx: { db: Db }) => Promise<T | null>): Promise<T> {
  await ensureStarted();
  const found = await load({ db: await getDb() }).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "NOT_FOUND") return null;
    throw error;
  });
  if (found === null) notFound();
  return found;
}

/**
 * A dashboard page: the signed-in user, or a redirect to /login. The layout checks too, but a page
 * renders alongside its layout: a session that ended (password changed elsewhere) must not make
 * the page fail first.
 */
export async function withUserPage<T>(load: (ctx: { db: Db; user: User }) => Promise<T | null>): Promise<T> {
  return withPage(async ({ db }) => load({ db, user: await requireUser() }));
}

/** The signed-in user or null, after start-up: for layouts and the sign-in pages, which render either way. */
export async function pageUser(): Promise<User | null> {
  await ensureStarted();
  return currentUser();
}
