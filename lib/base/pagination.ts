/** `{items, meta}` of every history endpoint; pages = 0 when there is nothing. */

export interface PageQuery {
  page: number;
  limit: number;
}

export interface Page<T> {
  items: T[];
  meta: { page: number; limit: number; total: number; pages: number };
}

export const offsetOf = (query: PageQuery) => (query.page - 1) * query.limit;

export function pageOf<T>(items: T[], total: number, query: PageQuery): Page<T> {
  return { items, meta: { page: query.page, limit: query.limit, total, pages: Math.ceil(total / query.limit) } };
}
