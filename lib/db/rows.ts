/** `db.execute` returns an array on postgres.js and `{ rows }` on PGlite; this reads both. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  const rows = (result as { rows?: unknown }).rows;
  return Array.isArray(rows) ? (rows as T[]) : [];
}

/**
 * The row of a statement that must touch one (an insert of one value, an update or a select by
 * key). None is a bug, not a user's mistake: it throws an Error naming `what`.
 */
export function requireRow<T>(rows: readonly T[], what: string): T {
  const [row] = rows;
  if (row === undefined) throw new Error(`${what}: expected a row, got none`);
  return row;
}
