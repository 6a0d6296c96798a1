import { ok } from "@/lib/http/envelope";
import { withUser } from "@/lib/http/handlers";
import { signOutEverywhere } from "@/lib/users/change-password";

/** POST /api/user/sign-out-everywhere → every bearer token and dashboard session of the user stops working, this one included. */
export const POST = withUser(async ({ db, user }) => {
  await signOutEverywhere(db, user.id);
  return ok({ signedOut: true });
});
