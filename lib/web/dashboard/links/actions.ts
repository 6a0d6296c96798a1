"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { PaymentLinkView } from "../../../domain/payment-links/link-view";
import { createPaymentLink, updatePaymentLink } from "../../../domain/payment-links/manage-links";
import { createLinkSchema, updateLinkSchema } from "../../../domain/payment-links/schemas";
import { type ActionResult, runAction } from "../shared/server-action";

/** A new payment link, with the API's schema and rules. */
export async function createLinkAction(input: unknown): Promise<ActionResult<PaymentLinkView>> {
  const result = await runAction("payments", createLinkSchema, input, ({ db, ...principal }, data) =>
    createPaymentLink(db, principal, data),
  );
  if (result.ok) revalidatePath("/dashboard/links");
  return result;
}

const updateSchema = updateLinkSchema.extend({ linkId: z.number().int().positive() });

/** Any change to a link (`linkId` and the fields to change): its words, its price, its redirect, or active on/off. */
export async function updateLinkAction(input: unknown): Promise<ActionResult<PaymentLinkView>> {
  const result = await runAction("payments", updateSchema, input, ({ db, ...principal }, { linkId, ...changes }) =>
    updatePaymentLink(db, principal, linkId, changes),
  );
  if (result.ok) revalidatePath("/dashboard/links");
  return result;
}
