"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { addDomain } from "../../../domain/merchant-domains/add-domain";
import {
  addDomainSchema,
  cancelDomainPayoutChange,
  type DomainView,
  deleteDomain,
  toDomainView,
  updateDomain,
  updateDomainSchema,
} from "../../../domain/merchant-domains/manage-domains";
import { type ActionResult, runAction } from "../shared/server-action";

const idSchema = z.object({ domainId: z.coerce.number().int().positive() });

export async function addDomainAction(input: unknown): Promise<ActionResult<DomainView>> {
  const result = await runAction("developer", addDomainSchema, input, async ({ db, account }, { domain }) =>
    toDomainView(await addDomain(db, account.id, domain)),
  );
  revalidatePath("/dashboard/domains");
  return result;
}

/**
 * The API's PATCH: payoutAddress and/or webhookUrl, or the fiat thresholds (basis points); empty
 * text clears one; `code` with two-factor on. A threshold that is not a whole number reaches the
 * validation as one (NaN), which refuses it on its field.
 */
export async function updateDomainAction(
  domainId: number,
  changes: { payoutAddress?: string; webhookUrl?: string; fiatUnderpayBps?: string; fiatRateToleranceBps?: string; code?: string },
): Promise<ActionResult<DomainView & { webhookSecret?: string }>> {
  const blankToNull = (v: string | undefined) => (v === undefined ? undefined : v.trim() === "" ? null : v.trim());
  const bps = (v: string | undefined) => {
    const text = blankToNull(v);
    return text === undefined || text === null ? text : Number(text);
  };
  const body = {
    payoutAddress: blankToNull(changes.payoutAddress),
    webhookUrl: blankToNull(changes.webhookUrl),
    fiatUnderpayBps: bps(changes.fiatUnderpayBps),
    fiatRateToleranceBps: bps(changes.fiatRateToleranceBps),
    code: changes.code?.trim() || undefined,
  };
  const result = await runAction(
    "read",
    idSchema.and(updateDomainSchema),
    { domainId, ...body },
    ({ db, ...principal }, { domainId: id, ...rest }) => updateDomain(db, principal, id, rest),
  );
  // A signing secret made now is shown by the form in a dialog: re-rendering the page with this
  // answer would reset the form (and the dialog with it); the form refreshes once it is closed.
  if (!(result.ok && result.data.webhookSecret)) revalidatePath("/dashboard/domains");
  return result;
}

/** The API's DELETE …/payout-change: withdraws a waiting payout address change (no code needed). */
export async function cancelPayoutChangeAction(domainId: number): Promise<ActionResult<DomainView>> {
  const result = await runAction("payout-targets", idSchema, { domainId }, ({ db, account }, { domainId: id }) =>
    cancelDomainPayoutChange(db, account.id, id),
  );
  revalidatePath("/dashboard/domains");
  return result;
}

export async function deleteDomainAction(domainId: number): Promise<ActionResult> {
  const result = await runAction("developer", idSchema, { domainId }, async ({ db, account }, { domainId: id }) => {
    await deleteDomain(db, account.id, id);
    return null;
  });
  revalidatePath("/dashboard/domains");
  return result;
}
