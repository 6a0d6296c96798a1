/** Where to go after signing in: a path on this site only (never another origin, never "//host"). */
export function safeCallbackPath(value: unknown, fallback = "/dashboard"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (value.startsWith("/login") || value.startsWith("/signup") || value.startsWith("/api/")) return fallback;
  return value.slice(0, 500);
}
