/**
 * Verifying BSC Pay's webhooks (Standard Webhooks, https://www.standardwebhooks.com): the
 * signature is an HMAC-SHA256 of "webhook-id.webhook-timestamp.body" under the domain's secret.
 * Web Crypto only, so it runs in Node 20+, Next.js (node and edge), Deno, Bun and Workers alike.
 */
import { WebhookVerificationError } from "./errors.js";
import type { WebhookEvent } from "./webhook-events.js";

export { WebhookVerificationError } from "./errors.js";
export type { WebhookEvent, WebhookEventOf, WebhookEventType } from "./webhook-events.js";

const MAX_SIGNATURES = 10;

/** Node's IncomingHttpHeaders, a fetch Headers object, or a plain record: names in any case. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /**
   * How far `webhook-timestamp` may be from now, either way. Default 300 seconds (Standard Webhooks'
   * value). Anything but a finite number ≥ 0 throws a TypeError: a NaN would let every replay through.
   */
  toleranceSeconds?: number;
  /** The clock (tests); an invalid Date throws a TypeError. */
  now?: Date;
}

export interface VerifiedWebhook<E = WebhookEvent> {
  /** The event's `webhook-id`: retries send the same one, so deduplicate on it. */
  id: string;
  /** When it was signed. */
  timestamp: Date;
  event: E;
}

/**
 * Checks a webhook and returns its event. `rawBody` must be the bytes as they arrived (parse the
 * JSON only after this: re-serialising changes them). `secret` is the domain's `whsec_…`; while
 * you rotate it, pass both (old and new) and either may sign. Throws WebhookVerificationError
 * for anything that must not be trusted: missing headers, a timestamp outside the tolerance (a
 * replay), no matching signature, a body that is not an event.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  return (await verifyWebhookDetailed(rawBody, headers, secret, options)).event;
}

/** verifyWebhook, with the event's id and signing time as well. */
export async function verifyWebhookDetailed(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<VerifiedWebhook> {
  const tolerance = options.toleranceSeconds ?? 300;
  if (typeof tolerance !== "number" || !Number.isFinite(tolerance) || tolerance < 0)
    throw new TypeError(`toleranceSeconds must be a finite number of seconds ≥ 0, not ${String(tolerance)}`);
  const clock = options.now ?? new Date();
  if (!(clock instanceof Date) || Number.isNaN(clock.getTime())) throw new TypeError("now must be a valid Date");
  // request.arrayBuffer()'s answer: the same bytes.
  if (rawBody instanceof ArrayBuffer) rawBody = new Uint8Array(rawBody);
  if (typeof rawBody !== "string" && !(rawBody instanceof Uint8Array)) {
    // e.g. a framework's parsed body ({} from express.raw() whose type did not match): nothing to check.
    throw new WebhookVerificationError("body-invalid", "rawBody must be the request's body as a string or bytes, before any parsing");
  }
  const secrets = (typeof secret === "string" ? [secret] : [...secret]).map(secretBytes);
  if (secrets.length === 0) throw new WebhookVerificationError("secret-invalid", "no webhook secret given");
  const id = header(headers, "webhook-id");
  const timestampText = header(headers, "webhook-timestamp");
  const signatureText = header(headers, "webhook-signature");
  if (!id || !timestampText || !signatureText) {
    throw new WebhookVerificationError("headers-missing", "webhook-id, webhook-timestamp and webhook-signature are required");
  }
  if (!/^\d{1,12}$/.test(timestampText)) throw new WebhookVerificationError("timestamp-invalid", "webhook-timestamp is not a Unix time");
  const signedAt = Number(timestampText);
  const now = Math.floor(clock.getTime() / 1000);
  if (signedAt < now - tolerance)
    throw new WebhookVerificationError("timestamp-too-old", "the webhook was signed too long ago (a replay?)");
  if (signedAt > now + tolerance) throw new WebhookVerificationError("timestamp-too-new", "the webhook's timestamp is in the future");

  // The bytes as they arrived are what was signed: decoding first would drop a BOM or mend bad UTF-8.
  const bodyBytes = typeof rawBody === "string" ? new TextEncoder().encode(rawBody) : rawBody;
  const prefix = new TextEncoder().encode(`${id}.${timestampText}.`);
  const signed = new Uint8Array(prefix.length + bodyBytes.length);
  signed.set(prefix);
  signed.set(bodyBytes, prefix.length);
  const signatures = signatureText
    .split(" ")
    // A sender signs with one or two secrets; a longer list is someone making us hash for them.
    .slice(0, MAX_SIGNATURES)
    .map((entry) => entry.split(","))
    .filter(([version, value]) => version === "v1" && value)
    .map(([, value]) => base64Bytes(value as string))
    .filter((bytes): bytes is Uint8Array => bytes !== null);
  let matched = false;
  for (const key of secrets) {
    const hmac = await globalThis.crypto.subtle.importKey("raw", key as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
    for (const signature of signatures) {
      // subtle.verify compares in constant time.
      if (await globalThis.crypto.subtle.verify("HMAC", hmac, signature as BufferSource, signed)) matched = true;
    }
  }
  if (!matched) throw new WebhookVerificationError("signature-mismatch", "no signature matches the secret");

  let event: unknown;
  try {
    event = JSON.parse(typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody));
  } catch {
    throw new WebhookVerificationError("body-invalid", "the body is not JSON");
  }
  if (!isEvent(event)) throw new WebhookVerificationError("body-invalid", "the body is not a BSC Pay event");
  return { id, timestamp: new Date(signedAt * 1000), event: event as WebhookEvent };
}

function isEvent(value: unknown): boolean {
  if (!value || typeof value !== "object") return false;
  const { type, timestamp, data } = value as Record<string, unknown>;
  return typeof type === "string" && typeof timestamp === "string" && typeof data === "object" && data !== null;
}

/** A header's value; a header sent several times is one list (as fetch's Headers joins it). */
function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name)?.trim() || undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return (Array.isArray(value) ? value.join(name === "webhook-signature" ? " " : ", ") : value)?.trim() || undefined;
}

function secretBytes(given: string): Uint8Array {
  // A secret read from an env file often keeps its line's newline.
  const secret = typeof given === "string" ? given.trim() : "";
  const encoded = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret;
  const bytes = base64Bytes(encoded);
  if (!bytes || bytes.length < 16) throw new WebhookVerificationError("secret-invalid", "the secret is not a whsec_… webhook secret");
  return bytes;
}

function base64Bytes(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  try {
    const binary = atob(text);
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}
