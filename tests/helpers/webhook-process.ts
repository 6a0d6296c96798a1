// A webhook sender in its own process (configuration from the environment), so a test can kill
// it while a delivery is in flight and check what a restart does. WEBHOOK_TEST_LEASE_MS shortens
// the lease only so the test need not wait the production 15 s for it to lapse.
import { getDatabase } from "@/lib/db";
import { deliverDueNotifications } from "@/lib/domain/notifications/delivery";

async function main() {
  const { db } = await getDatabase();
  const leaseMs = Number(process.env.WEBHOOK_TEST_LEASE_MS ?? 15_000);
  for (;;) {
    await deliverDueNotifications(db, { leaseMs, timeoutMs: leaseMs - 500 });
    await new Promise((r) => setTimeout(r, 100));
  }
}

void main();
