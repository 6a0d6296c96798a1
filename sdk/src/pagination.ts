/** One page of a cursor-paged list: its items and the cursor of the next page (null on the last). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  /** The list's size where the API tells it (payment and withdrawal history): `total` items in `pages` pages of `limit`. */
  meta?: { limit: number; total: number; pages: number };
}

/**
 * A walk over a cursor-paged list: `for await (const item of list)` yields every item, newest first,
 * fetching each page only when the one before is used up; `pages()` yields whole pages. The API's
 * cursors skip and repeat nothing while new rows arrive.
 */
export class Paginator<T> implements AsyncIterable<T> {
  constructor(private readonly fetchPage: (cursor: string) => Promise<Page<T>>) {}

  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let cursor = "";
    for (;;) {
      const page = await this.fetchPage(cursor);
      yield page;
      if (!page.nextCursor || page.nextCursor === cursor) return;
      cursor = page.nextCursor;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Every item up to `max` (default 1000) in an array: for small lists and scripts. */
  async toArray(max = 1000): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) {
      if (items.length >= max) break;
      items.push(item);
    }
    return items;
  }
}
