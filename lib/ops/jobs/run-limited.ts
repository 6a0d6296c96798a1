/**
 * `fn` over `items`, `limit` at a time, while `go()` holds: an item not started when it turns false
 * is left for later (the embedded runner's forwards stop being taken the moment leadership is lost;
 * the next leader finds them due in the database). A failing item does not stop the others.
 */
export async function runLimited<T>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<unknown>,
  go: () => boolean = () => true,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let item = items[next++]; item !== undefined && go(); item = items[next++]) await fn(item).catch(() => {});
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
