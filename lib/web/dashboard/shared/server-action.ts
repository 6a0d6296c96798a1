import { headers } from "next/headers";
import type { z } from "zod";
import { currentUser } from "../../../accounts/auth/current-user";
import { type Principal, requirePermission } from "../../../accounts/members/principal";
import { memberRefusal } from "../../../accounts/members/reasons";
import type { Permission } from "../../../accounts/members/roles";
import { besideItsField } from "../../../base/sentences";
import { type Db, getDb } from "../../../db";
import type { User } from "../../../db/schema";
import { ensureStarted } from "../../../ops/startup/startup";
import { dashboardPrincipal } from "../../http/account-choice";
import { nulPath } from "../../http/body";
import { clientAddress } from "../../http/client-ip";
import { type ActionFailure, actionRefusal } from "./action-refusal";

/**
 * What a dashboard server action answers: the data, or a message and per-field errors a form can
 * show next to its inputs, with the refusal's `reason` (docs/design.md §22) for a form that says
 * something of its own about it. Thrown errors never reach the browser as stack traces.
 */
export type ActionResult<T = null> = { ok: true; data: T; message?: string } | ActionFailure;

/**
 * Every mutation of the dashboard goes through here: the signed-in user, the same zod schema the
 * API validates with, then the same lib/ function the API calls. (Next.js checks a server action's
 * Origin against the host itself, so another site cannot drive it.)
 */
export async function runAction<S extends z.ZodType, T>(
  permission: Permission,
  schema: S,
  input: unknown,
  body: (ctx: { db: Db } & Principal, data: z.output<S>) => Promise<T>,
): Promise<ActionResult<T>> {
  return runActionOf(
    async (db, user) => {
      const principal = await dashboardPrincipal(db, user);
      if (!principal) throw memberRefusal("FORBIDDEN", "no-account", "you are not a member of any account");
      requirePermission(principal, permission);
      return principal;
    },
    schema,
    input,
    body,
  );
}

/** runAction for what concerns the signed-in user themself (password, two-factor, invitations), in no particular account. */
export async function runUserAction<S extends z.ZodType, T>(
  schema: S,
  input: unknown,
  body: (ctx: { db: Db; user: User; address: string }, data: z.output<S>) => Promise<T>,
): Promise<ActionResult<T>> {
  return runActionOf(async (_db, user) => ({ user, address: clientAddress(await headers()) }), schema, input, body);
}

async function runActionOf<S extends z.ZodType, C, T>(
  context: (db: Db, user: User) => Promise<C>,
  schema: S,
  input: unknown,
  body: (ctx: { db: Db } & C, data: z.output<S>) => Promise<T>,
): Promise<ActionResult<T>> {
  await ensureStarted();
  const user = await currentUser();
  if (!user) return { ok: false, code: "UNAUTHORIZED", error: "Your session has ended. Sign in again." };
  const nul = nulPath(input);
  if (nul !== null)
    return {
      ok: false,
      code: "VALIDATION_ERROR",
      error: `${nul || "the form"} must not contain a NUL character`,
      fieldErrors: { [nul || "form"]: "Must not contain a NUL character." },
    };
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const path = issue.path.join(".") || "form";
      fieldErrors[path] ??= besideItsField(path, issue.message);
    }
    // biome-ignore lint/style/noNonNullAssertion: zod reports at least one issue for every failed parse
    return { ok: false, code: "VALIDATION_ERROR", error: parsed.error.issues[0]!.message, fieldErrors };
  }
  try {
    const db = await getDb();
    return { ok: true, data: await body({ db, ...(await context(db, user)) }, parsed.data) };
  } catch (error) {
    return actionRefusal(error);
  }
}
