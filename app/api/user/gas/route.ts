import { getGasUsage } from "@/lib/dashboard/gas-usage";
import { ok } from "@/lib/http/envelope";
import { withUser } from "@/lib/http/handlers";

/** GET /api/user/gas → BNB the gas tank spent for this merchant per day and kind (30 days), and today's limits. */
export const GET = withUser(async ({ db, user }) => ok(await getGasUsage(db, user.id)));
