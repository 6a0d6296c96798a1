import { openPaymentsExport } from "@/lib/web/dashboard/payments/loaders";
import { paymentFiltersSchema } from "@/lib/web/dashboard/payments/user-payments";
import { exportResponse } from "@/lib/web/http/export-slots";
import { exportPrincipal } from "@/lib/web/http/page";

/** GET /dashboard/payments/export?<the list's filters>: the filtered payments as CSV, streamed from a database cursor. */
export async function GET(req: Request): Promise<Response> {
  const principal = await exportPrincipal();
  if (principal instanceof Response) return principal;
  const { account } = principal;
  const parsed = paymentFiltersSchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  // biome-ignore lint/style/noNonNullAssertion: a failed zod parse reports at least one issue
  if (!parsed.success) return new Response(parsed.error.issues[0]!.message, { status: 400 });
  return exportResponse(account.id, "bsc-pay-payments", () => openPaymentsExport(account.id, parsed.data));
}
