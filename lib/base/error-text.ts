/**
 * An error's own words for logs and messages: the short message and details of each link of its
 * cause chain (viem nests them), never its long `message` (which repeats request bodies), with
 * URLs cut to scheme and host (provider keys live in paths). Foundation: anything may use it.
 */

export interface ErrorLink {
  name?: string;
  code?: number;
  status?: number;
  shortMessage?: string;
  details?: string;
  cause?: unknown;
  message?: string;
}

export function errorLinks(error: unknown): ErrorLink[] {
  const chain: ErrorLink[] = [];
  for (let e = error as ErrorLink | undefined; e && typeof e === "object" && chain.length < 10; e = e.cause as ErrorLink | undefined)
    chain.push(e);
  if (chain.length === 0) chain.push({ message: String(error) });
  return chain;
}

/** The node's and the transport's own words, without the request body or the URL. */
export function errorText(error: unknown): string {
  const parts: string[] = [];
  const links = errorLinks(error);
  for (const link of links) {
    for (const part of [link.shortMessage, link.details]) if (part && !parts.includes(part)) parts.push(part);
  }
  if (parts.length === 0) parts.push(links[0]?.message ?? String(error));
  return redactUrls(parts.join(" | "));
}

/** The first part of errorText: the outermost error's own words, for a one-line reason. */
export function errorHeadline(error: unknown): string {
  const text = errorText(error);
  const end = text.indexOf(" | ");
  return end === -1 ? text : text.slice(0, end);
}

/**
 * Keeps scheme and host of every URL, drops credentials, path and query: provider API keys live
 * there (https://bsc.provider.example/v1/<key>).
 */
export function redactUrls(text: string): string {
  return text.replace(
    /\b(https?|wss?):\/\/(?:[^\s/@"'<>]*@)?([^\s/?#"'<>]+)[^\s"'<>]*/gi,
    (_match, scheme: string, host: string) => `${scheme}://${host}/…`,
  );
}
