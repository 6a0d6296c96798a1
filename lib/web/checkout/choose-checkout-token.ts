/**
 * The payer's "Pay with …" on a fiat-priced checkout: the session asks for that token's locked
 * quote from now on (lib/domain/payments/choose-token.ts), and the page gets its new view — the
 * amount, QR code and EIP-681 link all in the chosen token.
 */

import { z } from "zod";
import { positiveIntSchema } from "../../base/validation";
import type { Db } from "../../db";
import { chooseSessionToken } from "../../domain/payments/choose-token";
import { type CheckoutView, getCheckoutView } from "./checkout-view";

/** POST /api/checkout/:sessionId/token's body; unknown keys are dropped. */
export const chooseTokenSchema = z.object({ tokenId: positiveIntSchema("tokenId") });

export async function chooseCheckoutToken(db: Db, sessionId: string, tokenId: number, now = new Date()): Promise<CheckoutView> {
  await chooseSessionToken(db, sessionId, tokenId, now);
  return getCheckoutView(db, sessionId);
}
