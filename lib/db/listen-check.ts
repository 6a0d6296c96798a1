/**
 * Whether a NOTIFY sent through the pool reaches a LISTEN of this process. Through a
 * transaction-mode pooler (PgBouncer's transaction mode, many hosted providers' "pooled" URLs) it
 * does not — and the job leader's session advisory lock does not hold there either: such a URL
 * must be replaced by a direct or session-mode one. Checked once at start-up, with a warning.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { DatabaseHandle } from "./client";

export async function notifyReachesListen(handle: DatabaseHandle, timeoutMs = 3_000): Promise<boolean> {
  const channel = `bsc_pay_listen_check_${randomBytes(6).toString("hex")}`;
  let heard = () => {};
  const arrived = new Promise<true>((resolve) => {
    heard = () => resolve(true);
  });
  const stop = await handle.listen(channel, () => heard());
  let timer: NodeJS.Timeout | undefined;
  try {
    await handle.db.execute(sql`select pg_notify(${channel}, 'check')`);
    return await Promise.race([
      arrived,
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await stop().catch(() => {});
  }
}
