/**
 * One page of a list ordered newest first by `(created_at, id)`, by keyset (docs/design.md §25):
 * each page starts from a cursor, so a page deep in a history costs what the first one does, and
 * nothing counts the history. `older` and `newer` are the cursors of the pages beside this one
 * (null at either end). The table needs an index that starts with the list's scope and continues
 * with `(created_at desc, id desc)`.
 */

import { asc, desc, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { type Cursor, type CursorIdKind, decodeCursor, encodeCursor, KEYSET_TIME_FORMAT } from "../base/cursor";

export interface KeysetQuery {
  limit: number;
  /** The page of rows older than this cursor (a page's `older`). */
  after?: string;
  /** The page of rows newer than this cursor (a page's `newer`). */
  before?: string;
}

export interface KeysetPage<T> {
  items: T[];
  /** Cursor of the page of newer rows, or null on the newest page. */
  newer: string | null;
  /** Cursor of the page of older rows, or null on the oldest page. */
  older: string | null;
}

interface KeyColumns {
  createdAt: AnyPgColumn;
  id: AnyPgColumn;
}

/**
 * What a page's query needs: the bound (and it with the list's own conditions), the order, the
 * limit (one row more than shown, to know whether another page follows) and the selection that
 * reads `created_at` with its microseconds. A cursor that is not one we handed out is a VALIDATION_ERROR.
 */
export function keysetBounds(columns: KeyColumns, query: KeysetQuery, idKind: CursorIdKind = "uuid") {
  const after = query.after ? decodeCursor(query.after, idKind) : undefined;
  const before = !after && query.before ? decodeCursor(query.before, idKind) : undefined;
  const key = sql`(${columns.createdAt}, ${columns.id})`;
  const at = (c: Cursor) =>
    idKind === "uuid" ? sql`(${c.createdAt}::timestamptz, ${c.id}::uuid)` : sql`(${c.createdAt}::timestamptz, ${c.id}::bigint)`;
  return {
    where: after ? sql`${key} < ${at(after)}` : before ? sql`${key} > ${at(before)}` : undefined,
    orderBy: before ? [asc(columns.createdAt), asc(columns.id)] : [desc(columns.createdAt), desc(columns.id)],
    limit: query.limit + 1,
    cursorTime: sql<string>`to_char(${columns.createdAt} at time zone 'UTC', ${KEYSET_TIME_FORMAT})`.mapWith(String),
    /** Turns the rows the query returned into the page, newest first. */
    pageOf<T>(rows: T[], cursorOf: (row: T) => Cursor): KeysetPage<T> {
      const more = rows.length > query.limit;
      const shown = rows.slice(0, query.limit);
      if (before) shown.reverse();
      const first = shown[0];
      const last = shown.at(-1);
      const cursor = (row: T | undefined) => (row ? encodeCursor(cursorOf(row)) : null);
      if (before) return { items: shown, newer: more ? cursor(first) : null, older: cursor(last) };
      return { items: shown, newer: after ? cursor(first) : null, older: more ? cursor(last) : null };
    },
  };
}

/** Whether a page read with `before` came back short: it reached the newest rows, so the newest full page should be shown instead. */
export function reachedNewest(query: KeysetQuery, page: KeysetPage<unknown>): boolean {
  return Boolean(query.before && !query.after && page.newer === null && page.items.length < query.limit);
}

/** `created_at` as text, UTC with microseconds: what a cursor carries. */
export const keysetTimeText = (createdAt: AnyPgColumn): SQL<string> =>
  sql<string>`to_char(${createdAt} at time zone 'UTC', ${KEYSET_TIME_FORMAT})`;

/** Rows after `cursor` in newest-first order: a row comparison, which a btree on (…, created_at, id) takes as its start. */
export const keysetAfter = (createdAt: AnyPgColumn, id: AnyPgColumn, cursor: Cursor): SQL =>
  sql`(${createdAt}, ${id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`;
