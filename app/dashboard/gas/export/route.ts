import { openGasExport } from "@/lib/web/dashboard/pages";
import { exportResponse } from "@/lib/web/http/export-slots";
import { pageUser } from "@/lib/web/http/page";

/** GET /dashboard/gas/export: every transaction the gas tank paid for the merchant, as CSV, streamed. */
export async function GET(): Promise<Response> {
  const user = await pageUser();
  if (!user) return new Response("sign in first", { status: 401 });
  return exportResponse(user.id, "bsc-pay-gas", () => openGasExport(user.id));
}
