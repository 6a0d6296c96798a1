/**
 * Which account a request acts on (docs/design.md §24): the `X-Account-Id` header, else (dashboard
 * requests, which carry no header) the account chosen with the dashboard's switcher, kept in a
 * cookie; else the user's default account. The cookie only chooses: membership is checked on every
 * request, so a forged value reaches no account the user is not a member of.
 */

import { cookies, headers } from "next/headers";
import type { NextRequest } from "next/server";
import { type Principal, parseAccountId, resolvePrincipal } from "../../accounts/members/principal";
import { getConfig } from "../../base/config";
import { AppError } from "../../base/errors";
import type { Db } from "../../db";
import type { User } from "../../db/schema";
import { clientAddress } from "./client-ip";

export const ACCOUNT_COOKIE = "bscpay-account";

/** The account a /api/user request names: its header (VALIDATION_ERROR when malformed), else the dashboard's cookie. */
export function requestedAccount(req: NextRequest): number | null {
  const header = req.headers.get("x-account-id");
  if (header !== null) return parseAccountId(header);
  return cookieAccount(req.cookies.get(ACCOUNT_COOKIE)?.value);
}

/**
 * The dashboard's principal: the chosen account while the user is still a member of it, else the
 * default one (a member removed from the chosen account lands in another, not on an error); null
 * when the user belongs to no account.
 */
export async function dashboardPrincipal(db: Db, member: User): Promise<Principal | null> {
  const chosen = cookieAccount((await cookies()).get(ACCOUNT_COOKIE)?.value);
  const address = clientAddress(await headers());
  for (const accountId of chosen === null ? [null] : [chosen, null]) {
    try {
      return await resolvePrincipal(db, member, accountId, address);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== "FORBIDDEN") throw error;
    }
  }
  return null;
}

function cookieAccount(value: string | undefined): number | null {
  try {
    return parseAccountId(value);
  } catch {
    return null; // a mangled cookie chooses nothing
  }
}

/** Remembers the dashboard's account (a year; the membership is checked on every request anyway). */
export async function chooseDashboardAccount(accountId: number): Promise<void> {
  (await cookies()).set(ACCOUNT_COOKIE, String(accountId), {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 365 * 24 * 3600,
    secure: getConfig().siteUrl.startsWith("https://"),
  });
}
