import { getGasUsage } from "@/lib/web/dashboard/gas/gas-usage";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

/** GET /api/user/gas → BNB the gas tank spent for this merchant per day and kind (30 days), and today's limits. */
export const GET = withMember("read", async ({ db, account }) => ok(await getGasUsage(db, account.id)));
