/**
 * `{items, meta}` of every history endpoint; pages = 0 when there is nothing. Asked with a `cursor`
 * (docs/design.md §25), a page also says where the next one starts (`nextCursor`, null on the last)
 * and has no page number; asked without, it answers exactly as it always did.
 */
import { type Cursor, decodeCursor } from "./cursor";

export interface PageQuery {
  page: number;
  limit: number;
}

export interface Page<T> {
  items: T[];
  meta: { page: number; limit: number; total: number; pages: number };
}

export interface CursorPage<T> {
  items: T[];
  nextCursor: string | null;
  meta: { page: null; limit: number; total: number; pages: number; nextCursor: string | null };
}

export const offsetOf = (query: PageQuery) => (query.page - 1) * query.limit;

export function pageOf<T>(items: T[], total: number, query: PageQuery): Page<T> {
  return { items, meta: { page: query.page, limit: query.limit, total, pages: Math.ceil(total / query.limit) } };
}

export function cursorPageOf<T>(items: T[], total: number, limit: number, nextCursor: string | null): CursorPage<T> {
  return { items, nextCursor, meta: { page: null, limit, total, pages: Math.ceil(total / limit), nextCursor } };
}

/**
 * How a history request pages: by `cursor` when one is given (empty: from the newest), else by
 * `page`. A cursor that is not one we handed out is a VALIDATION_ERROR, before anything is read.
 */
export type Paging = { by: "cursor"; after: Cursor | null; limit: number } | { by: "page"; page: number; limit: number };

export function pagingOf(query: PageQuery & { cursor?: string }): Paging {
  if (query.cursor === undefined) return { by: "page", page: query.page, limit: query.limit };
  return { by: "cursor", after: query.cursor === "" ? null : decodeCursor(query.cursor), limit: query.limit };
}

/**
 * Where a `page` finds its ids: from the newest end of the index, or — past the middle of a
 * history whose total the counters know — from the oldest end, the same rows read backwards (the
 * caller orders the rows newest first again). Either way no page walks more than half the
 * history: the deepest page costs what the first does. A page at or past the end is read from the
 * newest, as it always was, whatever the total says.
 */
export function offsetPlan(query: PageQuery, total: number): { newestFirst: boolean; offset: number; limit: number } {
  const offset = offsetOf(query);
  if (offset * 2 <= total || offset >= total) return { newestFirst: true, offset, limit: query.limit };
  return { newestFirst: false, offset: Math.max(0, total - offset - query.limit), limit: Math.min(query.limit, total - offset) };
}
