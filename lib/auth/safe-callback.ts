/**
 * Where to go after signing in: a path on this site only — never another origin. A value is
 * resolved against a placeholder origin and kept only if it stays there; control characters and
 * backslashes are refused before that, raw or percent-encoded, because URL parsing drops a tab or
 * newline ("/\t/evil.example" becomes "//evil.example") and reads "\" as "/".
 */

const PLACEHOLDER_ORIGIN = "https://callback.invalid";
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a callback may not carry
const UNSAFE = /[\u0000-\u001f\u007f\\]/;

export function safeCallbackPath(value: unknown, fallback = "/dashboard"): string {
  if (typeof value !== "string" || value.length > 500 || !value.startsWith("/") || value.startsWith("//")) return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return fallback;
  }
  if (UNSAFE.test(value) || UNSAFE.test(decoded) || decoded.startsWith("//")) return fallback;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return fallback;
  if (/^\/(login|signup|api\/)/.test(url.pathname)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
