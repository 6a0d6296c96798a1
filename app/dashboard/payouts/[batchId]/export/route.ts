import { AppError } from "@/lib/base/errors";
import { payoutItemsCsv } from "@/lib/web/dashboard/payouts/loaders";
import { exportPrincipal } from "@/lib/web/http/page";

/** GET /dashboard/payouts/<batchId>/export: the batch's items as CSV; another account's batch is 404. */
export async function GET(_req: Request, { params }: { params: Promise<{ batchId: string }> }): Promise<Response> {
  const principal = await exportPrincipal();
  if (principal instanceof Response) return principal;
  const { batchId } = await params;
  try {
    const text = await payoutItemsCsv(principal.account.id, batchId);
    const stamp = new Date().toISOString().slice(0, 10);
    return new Response(text, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="bsc-pay-payout-${batchId.slice(0, 8)}-${stamp}.csv"`,
        "cache-control": "no-store",
      },
    });
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") return new Response("payout batch not found", { status: 404 });
    throw error;
  }
}
