"use server";

import { headers } from "next/headers";

import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { clientIp } from "@/lib/http/client-ip";
import { limiters } from "@/lib/http/rate-limit";
import { runAction, type ActionResult } from "@/lib/http/server-action";
import { ensureStarted } from "@/lib/startup";
import { z } from "zod";
import { changePassword, changePasswordSchema, signOutEverywhere } from "@/lib/users/change-password";
import { credentialsSchema } from "@/lib/users/create-user";
import { registerUser } from "@/lib/users/register-user";

/** Sign-up from the page: the same rules (and per-address limit) as POST /api/user/register. */
export async function signUpAction(input: { email: string; password: string }): Promise<ActionResult<{ email: string }>> {
  try {
    await ensureStarted();
    limiters().register.consume(clientIp(await headers()));
    const parsed = credentialsSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return { ok: false, code: "VALIDATION_ERROR", error: issue.message, fieldErrors: { [String(issue.path[0] ?? "form")]: issue.message } };
    }
    const user = await registerUser(await getDb(), parsed.data);
    return { ok: true, data: { email: user.email } };
  } catch (error) {
    if (error instanceof AppError) {
      const field = /email/.test(error.message) ? "email" : undefined;
      return { ok: false, code: error.code, error: error.message, fieldErrors: field ? { [field]: error.message } : undefined };
    }
    return { ok: false, code: "INTERNAL_ERROR", error: "Something went wrong on our side. Try again." };
  }
}

export async function changePasswordAction(input: unknown): Promise<ActionResult> {
  return runAction(changePasswordSchema, input, async ({ db, user }, data) => {
    await changePassword(db, user.id, data);
    return null;
  });
}

/** Ends every session and bearer token of the user, the caller's too (the page then signs out). */
export async function signOutEverywhereAction(): Promise<ActionResult> {
  return runAction(z.object({}), {}, async ({ db, user }) => {
    await signOutEverywhere(db, user.id);
    return null;
  });
}
