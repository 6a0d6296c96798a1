/**
 * The payments pages' loaders (the list, one payment, the new-payment form, the CSV export): each
 * opens the database itself, so app/ never holds a handle.
 */
import { AppError } from "../../../base/errors";
import { getDb } from "../../../db";
import { listDomains } from "../../../domain/merchant-domains/manage-domains";
import { getPaymentLink } from "../../../domain/payment-links/manage-links";
import { getPlan } from "../../../domain/plans/current-plan";
import { paymentRefunds } from "../../../domain/refunds/dashboard-refunds";
import { listTokens } from "../../../domain/tokens/list-tokens";
import { accountCurrencyOf } from "../account/account-settings";
import { getUserPayment } from "./payment-detail";
import { deliveriesOfSession } from "./payment-webhooks";
import { paymentsCsvStream } from "./payments-export";
import { listUserPayments, type PaymentFilters } from "./user-payments";

/** The statuses the payment list filters by (the schema's own list). */
export { SESSION_STATUSES } from "../../../db/schema";

/**
 * `/dashboard/payments`: one page of the filtered payments, the tokens and domains the filters
 * offer, and the payment link filtered by (null when none, or not the user's: the list is empty then).
 */
export async function loadPaymentsPage(userId: number, filters: PaymentFilters) {
  const db = await getDb();
  const [page, tokens, domains, link] = await Promise.all([
    listUserPayments(db, userId, filters),
    listTokens(db, userId),
    listDomains(db, userId),
    filters.linkId ? getPaymentLink(db, userId, filters.linkId).catch(notFoundAsNull) : null,
  ]);
  return { page, tokens, domains, link: link ? { linkId: link.linkId, title: link.title } : null };
}

function notFoundAsNull(error: unknown): null {
  if (error instanceof AppError && error.code === "NOT_FOUND") return null;
  throw error;
}

/** `/dashboard/payments/export`: the filtered payments as CSV bytes, streamed from the database. */
export async function openPaymentsExport(userId: number, filters: PaymentFilters): Promise<ReadableStream<Uint8Array>> {
  return paymentsCsvStream(await getDb(), userId, filters);
}

/**
 * `/dashboard/payments/<sessionId>`: one payment, its timeline, its webhook deliveries and its
 * refunds with what can still be refunded (never their claim links; which ones `memberId` made),
 * and the payment link that created it (NOT_FOUND when it is not the user's).
 */
export async function loadPaymentPage(userId: number, sessionId: string, memberId: number | null = null) {
  const db = await getDb();
  const payment = await getUserPayment(db, userId, sessionId);
  const [deliveries, refunds, link] = await Promise.all([
    deliveriesOfSession(db, userId, { id: payment.sessionId, createdAt: new Date(payment.createdAt) }),
    paymentRefunds(db, userId, payment.sessionId, memberId),
    payment.paymentLinkId ? getPaymentLink(db, userId, payment.paymentLinkId).catch(notFoundAsNull) : null,
  ]);
  return { ...payment, deliveries, refunds, link: link ? { linkId: link.linkId, title: link.title } : null };
}

/**
 * `/dashboard/payments/new`: the tokens and domains the form offers, the account's currency (the
 * other price it offers), and what blocks creating a payment (no plan, no token, no domain) so the
 * page can link to the fix instead.
 */
export async function loadCreatePaymentPage(userId: number) {
  const db = await getDb();
  const [current, tokens, domains, currency] = await Promise.all([
    getPlan(db, userId),
    listTokens(db, userId),
    listDomains(db, userId),
    accountCurrencyOf(db, userId),
  ]);
  const blockers = [
    ...(current.plan ? [] : (["plan"] as const)),
    ...(current.plan && current.usage.remaining === 0 ? (["quota"] as const) : []),
    ...(tokens.length ? [] : (["token"] as const)),
    ...(domains.length ? [] : (["domain"] as const)),
  ];
  return { tokens, domains, currency, blockers };
}
