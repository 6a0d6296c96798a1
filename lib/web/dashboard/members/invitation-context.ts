/**
 * Sign-up and sign-in keep an invitation's context: when they were opened from an invitation's
 * page (their `callbackUrl` is `/invite/<token>`), they say which account the visitor is about to
 * join and with which role, instead of the generic welcome.
 */

import { type InvitationPreview, previewInvitation } from "../../../accounts/members/invitations";
import { AppError } from "../../../base/errors";
import type { Db } from "../../../db";

const INVITATION_PATH = /^\/invite\/([A-Za-z0-9_-]{16,200})$/;

/** The invitation token a same-site callback path points at, or null. */
export function invitationTokenIn(callbackPath: string): string | null {
  return INVITATION_PATH.exec(callbackPath)?.[1] ?? null;
}

/** What the invitation behind `callbackPath` offers; null when there is none or it can no longer be used (its page says why). */
export async function invitationContext(db: Db, callbackPath: string): Promise<Pick<InvitationPreview, "accountLabel" | "role"> | null> {
  const token = invitationTokenIn(callbackPath);
  if (token === null) return null;
  try {
    const { accountLabel, role } = await previewInvitation(db, token);
    return { accountLabel, role };
  } catch (error) {
    if (error instanceof AppError && error.reason?.startsWith("invitation-")) return null;
    throw error;
  }
}
