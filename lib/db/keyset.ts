/**
 * SQL of keyset pages ordered newest first by `(created_at, id)` (lib/base/cursor.ts): the row's
 * time as the cursor holds it, and the bound that starts a page after a cursor. The bound is a row
 * comparison, which a btree index on (…, created_at, id) takes as its start: the page costs the
 * same at any depth.
 */
import { type Column, type SQL, sql } from "drizzle-orm";
import { type Cursor, KEYSET_TIME_FORMAT } from "../base/cursor";

/** `created_at` as text, UTC with microseconds: what a cursor carries. */
export const keysetTimeText = (createdAt: Column): SQL<string> =>
  sql<string>`to_char(${createdAt} at time zone 'UTC', ${KEYSET_TIME_FORMAT})`;

/** Rows after `cursor` in newest-first order. */
export const keysetAfter = (createdAt: Column, id: Column, cursor: Cursor): SQL =>
  sql`(${createdAt}, ${id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`;
