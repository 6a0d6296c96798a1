/**
 * The deliveries list of one domain card lives in the URL, so a filtered page can be reloaded or
 * shared: `?wh=<domainId>&whStatus=failed&whPage=2`. Only the card named by `wh` reads the
 * filter; every other card shows its first page of all deliveries.
 */
import { type DELIVERY_STATUSES, deliveriesQuerySchema } from "@/lib/domain/webhooks/deliveries";

export const DELIVERIES_PER_PAGE = 10;

export type DeliveryStatusFilter = (typeof DELIVERY_STATUSES)[number];

export interface DeliveriesSelection {
  status?: DeliveryStatusFilter;
  page: number;
}

export function selectionFor(domainId: number, params: Record<string, string | string[] | undefined>): DeliveriesSelection {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  if (one(params.wh) !== String(domainId)) return { page: 1 };
  // A hand-edited URL with a bad value falls back to the default rather than an error page.
  const parsed = deliveriesQuerySchema.safeParse({ page: one(params.whPage), status: one(params.whStatus) || undefined });
  return parsed.success ? { status: parsed.data.status, page: parsed.data.page } : { page: 1 };
}

export function queryFor(selection: DeliveriesSelection) {
  return { page: selection.page, limit: DELIVERIES_PER_PAGE, status: selection.status };
}

/** The link to a filtered page; the fragment brings the browser back to the same card. */
export function deliveriesHref(domainId: number, selection: DeliveriesSelection): string {
  const search = new URLSearchParams({ wh: String(domainId) });
  if (selection.status) search.set("whStatus", selection.status);
  if (selection.page > 1) search.set("whPage", String(selection.page));
  return `/dashboard/domains?${search.toString()}#webhooks-${domainId}`;
}
