/** Every Inngest step starts from the process's database (started and migrated once). */

import { type Db, getDb } from "@/lib/db";
import { ensureStarted } from "@/lib/ops/startup/startup";

export async function jobDb(): Promise<Db> {
  await ensureStarted();
  return getDb();
}
