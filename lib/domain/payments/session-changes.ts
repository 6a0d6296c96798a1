/**
 * Every change of a payment session is announced on one PostgreSQL channel (NOTIFY, delivered at
 * commit to every process of the database — PGlite's one process included), so an open checkout
 * page on any instance learns of a payment the moment the scanner records it, wherever that
 * scanner runs. The pages' feed still reads the database on its own every second: an announcement
 * only brings that read forward, and a lost one costs at most that second.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../db";

export const SESSION_CHANGES_CHANNEL = "bsc_pay_session_changes";
/** A NOTIFY payload holds less than 8,000 bytes: 37 characters per session id with its comma. */
const IDS_PER_NOTICE = 200;

/** Announces, at the commit of `tx`, that these sessions changed. */
export async function announceSessionChanges(tx: Db, sessionIds: readonly string[]): Promise<void> {
  const ids = [...new Set(sessionIds)];
  for (let i = 0; i < ids.length; i += IDS_PER_NOTICE) {
    await tx.execute(sql`select pg_notify(${SESSION_CHANGES_CHANNEL}, ${ids.slice(i, i + IDS_PER_NOTICE).join(",")})`);
  }
}
