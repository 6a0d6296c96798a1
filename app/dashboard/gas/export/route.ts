import { openGasExport } from "@/lib/web/dashboard/pages";
import { csvDownload } from "@/lib/web/http/csv-download";
import { pageUser } from "@/lib/web/http/page";

/** GET /dashboard/gas/export: every transaction the gas tank paid for the merchant, as CSV, streamed. */
export async function GET(): Promise<Response> {
  const user = await pageUser();
  if (!user) return new Response("sign in first", { status: 401 });
  return csvDownload(await openGasExport(user.id), "bsc-pay-gas");
}
