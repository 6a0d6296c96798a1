import { openGasExport } from "@/lib/web/dashboard/gas/loaders";
import { exportResponse } from "@/lib/web/http/export-slots";
import { exportPrincipal } from "@/lib/web/http/page";

/** GET /dashboard/gas/export: every transaction the gas tank paid for the merchant, as CSV, streamed. */
export async function GET(): Promise<Response> {
  const principal = await exportPrincipal();
  if (principal instanceof Response) return principal;
  const { account } = principal;
  return exportResponse(account.id, "bsc-pay-gas", () => openGasExport(account.id));
}
