import { openPaymentsExport } from "@/lib/web/dashboard/pages";
import { paymentFiltersSchema } from "@/lib/web/dashboard/user-payments";
import { exportResponse } from "@/lib/web/http/export-slots";
import { pageUser } from "@/lib/web/http/page";

/** GET /dashboard/payments/export?<the list's filters>: the filtered payments as CSV, streamed from a database cursor. */
export async function GET(req: Request): Promise<Response> {
  const user = await pageUser();
  if (!user) return new Response("sign in first", { status: 401 });
  const parsed = paymentFiltersSchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  // biome-ignore lint/style/noNonNullAssertion: a failed zod parse reports at least one issue
  if (!parsed.success) return new Response(parsed.error.issues[0]!.message, { status: 400 });
  return exportResponse(user.id, "bsc-pay-payments", () => openPaymentsExport(user.id, parsed.data));
}
