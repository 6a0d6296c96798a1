import { startEnrolment } from "@/lib/accounts/users/two-factor";
import { ok } from "@/lib/web/http/envelope";
import { withUser } from "@/lib/web/http/handlers";

/**
 * POST /api/user/two-factor → {secret, uri, qrCode}: two-factor set-up, step 1, for the signed-in
 * user (in no account: a member an account holds to enrolling reaches it). Nothing changes for
 * sign-in until POST /api/user/two-factor/confirm; already on → 400 `two-factor-already-on`.
 */
export const POST = withUser(async ({ db, user }) => ok(await startEnrolment(db, user)));
