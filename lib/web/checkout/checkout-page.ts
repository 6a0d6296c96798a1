import { AppError } from "../../base/errors";
import { isUuid } from "../../base/validation";
import type { Db } from "../../db";
import { getCheckoutView } from "./checkout-view";

/** The hosted page's data for a session id from its URL, or null when there is no such session. */
export async function loadCheckout(db: Db, sessionId: string) {
  try {
    if (!isUuid(sessionId)) return null;
    return await getCheckoutView(db, sessionId.toLowerCase());
  } catch (error) {
    if (error instanceof AppError && (error.code === "NOT_FOUND" || error.code === "VALIDATION_ERROR")) return null;
    throw error;
  }
}
