/**
 * The dashboard's refunds: what a payment can still refund (the form's default), and creating one
 * as the signed-in merchant. A refund sends money out of the merchant's wallet — to an address
 * the merchant types, or to one a payer will choose — so with two-factor sign-in on it needs a
 * current code, as a dashboard withdrawal does. The form's request id makes a double click one refund.
 * The claim link is in the creating answer only: the payment's page lists refunds without it, and
 * the member who created one may issue a new link (claim-link.ts).
 */

import { byMember } from "../../accounts/audit/audit-origin";
import type { Acting } from "../../accounts/members/principal";
import { requireSecondFactor } from "../../accounts/users/two-factor";
import { formatAmount } from "../../base/money";
import type { Db } from "../../db";
import { storedResponse } from "../idempotency/idempotency";
import { findSessionInScope } from "../payments/find-session";
import { FIAT_MINOR_UNITS, formatFiatAmount } from "../pricing/fiat";
import { createRefund } from "./create-refund";
import { findRefund, listSessionRefunds } from "./find-refund";
import { refundRefusal } from "./reasons";
import { REFUND_SCOPE } from "./refund-payouts";
import { fiatExceedsRefundable, fiatRefundable, priceFiatRefund, requestedBasis } from "./refund-rate";
import { lockedAmounts } from "./refund-rules";
import { type RefundView, toRefundView } from "./refund-view";
import { type NotRefundableReason, REFUND_REFUSALS } from "./refundable";
import type { CreateRefundInput } from "./schemas";

/** A refund on the payment's page: never its link; whether the member looking made it (and so may issue a new link). */
export type DashboardRefund = RefundView & { createdByYou: boolean };

export interface PaymentRefunds {
  refunds: DashboardRefund[];
  /** What can still go back and what the form offers (null: nothing beyond the price, the merchant types the amount), or why nothing can. */
  refundable:
    | {
        amount: string;
        byDefault: string | null;
        /** A fiat-priced payment: its price, the fiat basis's default (the dialog offers tokens or fiat at today's rate). */
        fiat?: { currency: string; price: string };
      }
    | { refusal: NotRefundableReason };
}

export async function paymentRefunds(db: Db, userId: number, sessionId: string, memberId: number | null = null): Promise<PaymentRefunds> {
  const { session, token } = await findSessionInScope(db, { userId }, sessionId);
  const [refunds, amounts] = await Promise.all([listSessionRefunds(db, session.id), lockedAmounts(db, session.id, { lock: false })]);
  return {
    refunds: refunds.map((source) => ({
      ...toRefundView(source),
      createdByYou: memberId !== null && source.refund.createdBy === memberId,
    })),
    refundable: amounts.ok
      ? {
          amount: formatAmount(amounts.refundable, token.decimals),
          byDefault: amounts.byDefault === null ? null : formatAmount(amounts.byDefault, token.decimals),
          ...(session.currency !== null && session.fiatAmount !== null
            ? { fiat: { currency: session.currency, price: formatFiatAmount(session.fiatAmount, FIAT_MINOR_UNITS[session.currency] ?? 2) } }
            : {}),
        }
      : { refusal: REFUND_REFUSALS[amounts.reason].reason },
  };
}

export async function refundFromDashboard(
  db: Db,
  acting: Acting,
  sessionId: string,
  input: CreateRefundInput,
  requestId: string,
  code?: string,
): Promise<RefundView> {
  const { account, member } = acting;
  await findSessionInScope(db, { userId: account.id }, sessionId); // someone else's payment is NOT_FOUND before any code is checked
  // The same form again (a double click, a code that expired meanwhile) answers with its refund; only a new one needs the code.
  // The form's id names one submission, whatever its fields: no body to compare. That answer has no
  // claim link (its secret is in the first answer only); the dialog offers a new link instead.
  const idempotency = { key: requestId, body: null };
  const earlier = await storedResponse<{ refundId: string }>(db, { owner: { userId: account.id }, scope: REFUND_SCOPE, ...idempotency });
  if (earlier) return toRefundView(await findRefund(db, { userId: account.id }, earlier.body.refundId));
  await requireSecondFactor(db, member, code);
  const { view } = await createRefund(
    db,
    { scope: { userId: account.id }, idempotency, member: member.id, origin: byMember(acting) },
    sessionId,
    input,
  );
  return view;
}

/** What a fiat-basis refund of `fiatAmount` (default: the whole price) gives back at today's rate, before the merchant confirms. */
export interface RefundPreview {
  /** Tokens, rounded up. */
  amount: string;
  token: string;
  currency: string;
  fiatAmount: string;
  rate: string;
  ratedAt: string;
  /** The most the payment can still refund: in tokens, and in fiat at this rate (rounded down). */
  refundable: string;
  atMost: string;
}

/**
 * The dashboard dialog's preview of a fiat refund: the same checks and rate as creating it
 * (refund-rate.ts), nothing recorded. A stale feed, a bad amount or too large an amount is refused
 * as the refund would be.
 */
export async function previewRefund(db: Db, userId: number, sessionId: string, fiatAmount?: string): Promise<RefundPreview> {
  const found = await findSessionInScope(db, { userId }, sessionId);
  const basis = requestedBasis(found, { basis: "fiat", fiatAmount });
  if (basis.kind !== "fiat") throw new Error("a fiat basis was asked for");
  const amounts = await lockedAmounts(db, found.session.id, { lock: false });
  if (!amounts.ok) {
    const { reason, message } = REFUND_REFUSALS[amounts.reason];
    throw refundRefusal("VALIDATION_ERROR", reason, message);
  }
  const priced = await priceFiatRefund(db, found, basis.fiat);
  if (!priced.ok) throw priced.error;
  const { terms } = priced;
  const { decimals, symbol } = found.token;
  const atMost = fiatRefundable(amounts.refundable, decimals, terms);
  if (terms.units > amounts.refundable)
    throw fiatExceedsRefundable(terms, symbol, formatAmount(amounts.refundable, decimals), atMost, formatAmount(terms.units, decimals));
  return {
    amount: formatAmount(terms.units, decimals),
    token: symbol,
    currency: terms.currency,
    fiatAmount: formatFiatAmount(terms.fiatMinor, terms.minorDigits),
    rate: terms.rate,
    ratedAt: terms.ratedAt.toISOString(),
    refundable: formatAmount(amounts.refundable, decimals),
    atMost: formatFiatAmount(atMost, terms.minorDigits),
  };
}
