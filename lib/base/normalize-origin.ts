/**
 * An origin URL as a browser sends it in `Origin`: scheme://host[:port], lower case, without the
 * default port, path, query, fragment or credentials. Returns null for anything else.
 */
export function normalizeOrigin(value: string): string | null {
  const trimmed = value.trim();
  if (!/^https?:\/\/[^/?#\s]+\/?$/i.test(trimmed) || !URL.canParse(trimmed)) return null;
  const url = new URL(trimmed);
  if (url.username || url.password || !url.hostname) return null;
  return url.origin.toLowerCase();
}
