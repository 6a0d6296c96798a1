/** `npm run db:migrate`: apply pending migrations to DATABASE_URL (or the embedded PGlite) and exit. */

import { ConfigError } from "@/lib/base/config";
import { closeDatabase, getDatabase } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";

async function main() {
  const { db, driver } = await getDatabase(); // opening migrates already; run again to report
  const applied = await migrate(db);
  console.log(`database (${driver}) is up to date${applied.length ? `; applied ${applied.join(", ")}` : ""}`);
  await closeDatabase();
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : String(error));
  process.exit(1);
});
