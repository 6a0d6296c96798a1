import { openWithdrawalsExport, WITHDRAWAL_STATUSES, type WithdrawalStatus } from "@/lib/web/dashboard/withdrawals/loaders";
import { exportResponse } from "@/lib/web/http/export-slots";
import { exportPrincipal } from "@/lib/web/http/page";

/** GET /dashboard/withdrawals/export?status=: the merchant's withdrawals (of one status, or all) as CSV, streamed. */
export async function GET(req: Request): Promise<Response> {
  const principal = await exportPrincipal();
  if (principal instanceof Response) return principal;
  const { account } = principal;
  const status = new URL(req.url).searchParams.get("status") || undefined;
  if (status !== undefined && !(WITHDRAWAL_STATUSES as readonly string[]).includes(status)) {
    return new Response(`status must be one of ${WITHDRAWAL_STATUSES.join(", ")}`, { status: 400 });
  }
  return exportResponse(account.id, "bsc-pay-withdrawals", () => openWithdrawalsExport(account.id, status as WithdrawalStatus | undefined));
}
