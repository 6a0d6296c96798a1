import { auditFiltersSchema } from "@/lib/accounts/audit/audit-query";
import { openAuditExport } from "@/lib/web/dashboard/audit/audit-log";
import { exportResponse } from "@/lib/web/http/export-slots";
import { exportPrincipal } from "@/lib/web/http/page";

/** GET /dashboard/audit/export?<the page's filters>: the matching audit events as CSV, streamed. */
export async function GET(req: Request): Promise<Response> {
  const principal = await exportPrincipal("audit");
  if (principal instanceof Response) return principal;
  const { account } = principal;
  const parsed = auditFiltersSchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  // biome-ignore lint/style/noNonNullAssertion: a failed zod parse reports at least one issue
  if (!parsed.success) return new Response(parsed.error.issues[0]!.message, { status: 400 });
  return exportResponse(account.id, "bsc-pay-audit", () => openAuditExport(account.id, parsed.data.filters));
}
