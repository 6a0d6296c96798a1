/**
 * The deliveries list of one domain card lives in the URL, so a filtered page can be reloaded or
 * shared: `?wh=<domainId>&whStatus=failed&whAfter=<cursor>`. Only the card named by `wh` reads the
 * filter; every other card shows its first page of all deliveries.
 */
import { isCursor } from "@/lib/base/cursor";
import { type DELIVERY_STATUSES, deliveriesQuerySchema } from "@/lib/domain/webhooks/deliveries";

export const DELIVERIES_PER_PAGE = 10;

export type DeliveryStatusFilter = (typeof DELIVERY_STATUSES)[number];

/** Pages by cursor (lib/db/keyset.ts): `after` is a page's `older`, `before` its `newer`. */
export interface DeliveriesSelection {
  status?: DeliveryStatusFilter;
  after?: string;
  before?: string;
}

export function selectionFor(domainId: number, params: Record<string, string | string[] | undefined>): DeliveriesSelection {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  if (one(params.wh) !== String(domainId)) return {};
  // A hand-edited URL with a bad value falls back to the default rather than an error page; an old
  // `whPage` link opens the newest page; a cursor we did not hand out is never sent to the database.
  const parsed = deliveriesQuerySchema.safeParse({ status: one(params.whStatus) || undefined });
  const status = parsed.success ? parsed.data.status : undefined;
  const cursor = (v: string | undefined) => (v && isCursor(v, "integer") ? v : undefined);
  const after = cursor(one(params.whAfter));
  return { status, after, before: after ? undefined : cursor(one(params.whBefore)) };
}

export function queryFor(selection: DeliveriesSelection) {
  return { limit: DELIVERIES_PER_PAGE, status: selection.status, after: selection.after, before: selection.before };
}

/** The link to a filtered page; the fragment brings the browser back to the same card. */
export function deliveriesHref(domainId: number, selection: DeliveriesSelection): string {
  const search = new URLSearchParams({ wh: String(domainId) });
  if (selection.status) search.set("whStatus", selection.status);
  if (selection.after) search.set("whAfter", selection.after);
  else if (selection.before) search.set("whBefore", selection.before);
  return `/dashboard/domains?${search.toString()}#webhooks-${domainId}`;
}
