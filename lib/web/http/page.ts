/**
 * Every server-rendered page reads its data through here, as every route goes through withErrors
 * and every dashboard form through runAction: start-up first, then the loader. A record that is
 * not there (the loader answers null, or refuses with NOT_FOUND) is the page's 404.
 */

import { notFound, redirect } from "next/navigation";
import { currentUser, requireUser } from "../../accounts/auth/current-user";
import { type AccountChoice, listUserAccounts } from "../../accounts/members/manage-members";
import type { Principal } from "../../accounts/members/principal";
import { PERMISSIONS, type Permission, roleAllows } from "../../accounts/members/roles";
import { AppError } from "../../base/errors";
import { type Db, getDb } from "../../db";
import type { User } from "../../db/schema";
import { ensureStarted } from "../../ops/startup/startup";
import { dashboardPrincipal } from "./account-choice";

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

/** Where a member the account holds to enrolling in two-factor first lands, whatever page they asked for. */
export const TWO_FACTOR_REQUIRED_PAGE = "/dashboard/two-factor-required";

/**
 * A dashboard page: the signed-in user in the account chosen with the switcher, or a redirect to
 * /login; a role without `permission` is sent to /dashboard/forbidden, which says which roles have
 * it; a member the account requires two-factor of, who has none, to TWO_FACTOR_REQUIRED_PAGE. The layout checks too, but a page renders alongside its layout: a session that ended
 * (password changed elsewhere) must not make the page fail first.
 */
export async function withAccountPage<T>(permission: Permission, load: (ctx: { db: Db } & Principal) => Promise<T | null>): Promise<T> {
  return withPage(async ({ db }) => {
    const principal = await dashboardPrincipal(db, await requireUser());
    if (!principal) redirect("/dashboard");
    // Held by the account's two-factor rule: the one page they may open says why and enrols them.
    if (principal.enrolOnly) redirect(TWO_FACTOR_REQUIRED_PAGE);
    if (!roleAllows(principal.role, permission)) redirect(`/dashboard/forbidden?need=${permission}`);
    return load({ db, ...principal });
  });
}

/**
 * TWO_FACTOR_REQUIRED_PAGE: the signed-in member in the dashboard's account, held or not. It does
 * not send a member who has just enrolled away: turning two-factor on renews the session cookie,
 * which re-renders the page while it still shows the recovery codes; the page says they may go on.
 */
export async function withTwoFactorRequiredPage<T>(load: (ctx: { db: Db } & Principal) => Promise<T>): Promise<T> {
  return withPage(async ({ db }) => {
    const principal = await dashboardPrincipal(db, await requireUser());
    if (!principal) redirect("/dashboard");
    return load({ db, ...principal });
  });
}

/** The signed-in user's principal in the dashboard's account, or null (signed out, or in no account): for the layout and exports. */
export async function pagePrincipal(): Promise<{ member: User; principal: Principal | null; accounts: AccountChoice[] } | null> {
  await ensureStarted();
  const member = await currentUser();
  if (!member) return null;
  const db = await getDb();
  const [principal, accounts] = await Promise.all([dashboardPrincipal(db, member), listUserAccounts(db, member.id)]);
  return { member, principal, accounts };
}

/** A dashboard CSV export: the principal when the role may export reports, else the response to send. */
export async function exportPrincipal(permission: Permission = "reports"): Promise<Principal | Response> {
  const found = await pagePrincipal();
  if (!found?.principal) return new Response("sign in first", { status: 401 });
  if (found.principal.enrolOnly)
    return new Response("this account requires two-factor authentication of your role: turn it on in Settings first", { status: 403 });
  if (!roleAllows(found.principal.role, permission))
    return new Response(`your role (${found.principal.role}) cannot ${PERMISSIONS[permission]}`, { status: 403 });
  return found.principal;
}

/** The signed-in user or null, after start-up: for layouts and the sign-in pages, which render either way. */
export async function pageUser(): Promise<User | null> {
  await ensureStarted();
  return currentUser();
}
