/**
 * Where to go after signing in: a path on this site only — never another origin. The value is
 * resolved against a placeholder origin with the URL parser, and the RESULT is what is checked and
 * returned: the parser removes dot segments ("/x/..//evil.example" and "/x/%2e%2e//evil.example"
 * resolve to the path "//evil.example", which a browser reads as another host), drops tabs and
 * newlines and reads "\" as "/". Control characters and backslashes are refused before that, raw
 * or percent-encoded, and a resolved path that starts with "//" or "/\" (raw or encoded) is refused.
 */

const PLACEHOLDER_ORIGIN = "https://callback.invalid";
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a callback may not carry
const UNSAFE = /[\u0000-\u001f\u007f\\]/;
/** A path a browser could read as protocol-relative ("//host", "/\host"), raw or percent-encoded. */
const HOST_LIKE = /^\/(\/|\\|%2f|%5c)/i;
/** Encoded "/", "\" or "." only serve to hide a separator or a dot segment from a check: no page needs them. */
const ENCODED_SEPARATOR = /%(2f|5c|2e)/i;

/** The same-site path+search+hash `value` resolves to, or null when it would leave the site. */
export function sameSitePath(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 500 || !value.startsWith("/") || HOST_LIKE.test(value)) return null;
  // The path decides where the browser goes; a query may carry encoded "/" or "\" (a filter's value).
  const path = value.split(/[?#]/, 1)[0] ?? "";
  if (ENCODED_SEPARATOR.test(path)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null;
  }
  if (UNSAFE.test(value) || UNSAFE.test(decoded) || HOST_LIKE.test(decoded)) return null;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN || url.username !== "" || url.password !== "") return null;
  const result = `${url.pathname}${url.search}${url.hash}`;
  let decodedResult: string;
  try {
    decodedResult = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (!result.startsWith("/") || HOST_LIKE.test(result) || HOST_LIKE.test(decodedResult) || UNSAFE.test(decodedResult)) return null;
  // The string returned must resolve to itself: what the browser follows is what was checked.
  if (new URL(result, PLACEHOLDER_ORIGIN).href !== url.href) return null;
  return result;
}

/** After sign-in: a same-site page, never the sign-in pages or the API; `fallback` otherwise. */
export function safeCallbackPath(value: unknown, fallback = "/dashboard"): string {
  const path = sameSitePath(value);
  if (path === null || /^\/(login|signup|api\/)/.test(path)) return fallback;
  return path;
}

/**
 * next-auth's redirect callback: a path or an absolute URL on this site's origin is kept (as the
 * resolved same-site URL), anything else becomes the site's root.
 */
export function safeAuthRedirect(url: string, baseUrl: string): string {
  const base = new URL(baseUrl);
  let candidate: string = url;
  if (!url.startsWith("/")) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return base.origin;
    }
    if (parsed.origin !== base.origin || parsed.username !== "" || parsed.password !== "") return base.origin;
    candidate = `${parsed.pathname}${parsed.search}${parsed.hash}`;
  }
  const path = sameSitePath(candidate);
  return path === null ? base.origin : `${base.origin}${path}`;
}
