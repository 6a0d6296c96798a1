import { ipLiteralHost, isNonPublicAddress } from "./address-guard";

/**
 * Refusals that need no network, checked when a URL is saved and again before every attempt
 * (the setting may have changed since): the scheme, and an IP literal in a non-public range.
 * Host names are checked where it counts, on the address they resolve to at connection time.
 */
export function refuseTarget(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== "https:" && url.protocol !== "http:") return "the webhook URL must be http(s)";
  if (allowPrivate) return null;
  if (url.protocol !== "https:") return "the webhook URL must use https";
  const literal = ipLiteralHost(url);
  if (literal && isNonPublicAddress(literal)) return `${literal} is not a public address`;
  return null;
}

/** Why this webhookUrl cannot be saved, or null when it can. */
export function webhookUrlProblem(value: string, allowPrivate: boolean): string | null {
  if (!URL.canParse(value)) return "webhookUrl must be an http(s) URL";
  const refusal = refuseTarget(new URL(value), allowPrivate);
  return refusal ? `webhookUrl refused: ${refusal} (private and loopback targets need WEBHOOK_ALLOW_PRIVATE=true)` : null;
}
