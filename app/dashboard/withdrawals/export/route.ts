import { openWithdrawalsExport, WITHDRAWAL_STATUSES, type WithdrawalStatus } from "@/lib/web/dashboard/pages";
import { exportResponse } from "@/lib/web/http/export-slots";
import { pageUser } from "@/lib/web/http/page";

/** GET /dashboard/withdrawals/export?status=: the merchant's withdrawals (of one status, or all) as CSV, streamed. */
export async function GET(req: Request): Promise<Response> {
  const user = await pageUser();
  if (!user) return new Response("sign in first", { status: 401 });
  const status = new URL(req.url).searchParams.get("status") || undefined;
  if (status !== undefined && !(WITHDRAWAL_STATUSES as readonly string[]).includes(status)) {
    return new Response(`status must be one of ${WITHDRAWAL_STATUSES.join(", ")}`, { status: 400 });
  }
  return exportResponse(user.id, "bsc-pay-withdrawals", () => openWithdrawalsExport(user.id, status as WithdrawalStatus | undefined));
}
