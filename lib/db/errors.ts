/** Postgres SQLSTATE 23505, as postgres.js and PGlite (possibly wrapped by drizzle) report it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === "23505") return true;
  }
  return false;
}
