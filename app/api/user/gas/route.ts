import { getGasUsage } from "@/lib/web/dashboard/gas-usage";
import { ok } from "@/lib/web/http/envelope";
import { withUser } from "@/lib/web/http/handlers";

/** GET /api/user/gas → BNB the gas tank spent for this merchant per day and kind (30 days), and today's limits. */
export const GET = withUser(async ({ db, user }) => ok(await getGasUsage(db, user.id)));
