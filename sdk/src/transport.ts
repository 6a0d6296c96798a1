/**
 * One API call over fetch, with the SDK's retry rules (docs/sdk.md, "Retries"): what may be sent
 * again after a refusal or a lost answer, after how long, and with which Idempotency-Key.
 */
import { type ApiErrorCode, type ApiErrorReason, BscPayApiError, BscPayNetworkError } from "./errors.js";

export interface TransportOptions {
  /** A secret key (bscp_live_…) on servers; a publishable key (bscp_pk_live_…) may create and read payments from a browser. */
  apiKey: string;
  /** Where BSC Pay answers, e.g. "https://pay.example.com" (its origin: a path is ignored, the gateway serves from its root). */
  baseUrl: string;
  /** Retries after a 429, a 5xx or a network error (the latter two for idempotent calls only). Default 2. */
  maxRetries?: number;
  /** One attempt's time limit in milliseconds. Default 30 000. */
  timeoutMs?: number;
  /** A 429 asking to wait longer than this is not waited for: the error is thrown at once. Default 60. */
  maxRetryAfterSeconds?: number;
  /** Default fetch: globalThis.fetch. */
  fetch?: typeof fetch;
  /** Waits between attempts (tests replace it to skip the clock); an abort of the call ends the wait. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface Call {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /**
   * An Idempotency-Key for calls that move money (the API replays the first answer for 24 h):
   * a string to use, `true` for a fresh random one, `false` for none.
   */
  idempotencyKey?: string | boolean;
  signal?: AbortSignal;
}

const RETRY_BASE_MS = 500;
const RETRY_CAP_MS = 8_000;

/** One call: the envelope's `data`, or a typed error. Retries as described in docs/sdk.md. */
export async function send<T>(options: TransportOptions, call: Call): Promise<T> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? sleepUnlessAborted;
  const wait = (ms: number) => waitUnlessAborted(sleep, ms, call.signal);
  const maxRetries = options.maxRetries ?? 2;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const idempotencyKey = call.idempotencyKey === true ? randomKey() : call.idempotencyKey === false ? undefined : call.idempotencyKey;
  // Safe to send again after an unknown outcome: a read, or a write the API deduplicates by its key.
  const idempotent = call.method === "GET" || idempotencyKey !== undefined;
  const url = buildUrl(options.baseUrl, call.path, call.query);
  const headers: Record<string, string> = { accept: "application/json", "x-api-key": options.apiKey };
  if (call.body !== undefined) headers["content-type"] = "application/json";
  if (idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKey;
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);

  for (let attempt = 0; ; attempt++) {
    call.signal?.throwIfAborted();
    const retriesLeft = attempt < maxRetries;
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, {
        method: call.method,
        headers,
        body,
        signal: call.signal ? AbortSignal.any([call.signal, timeout]) : timeout,
        redirect: "error",
      });
      // The body is part of the answer: cut off or timed out while it arrives, the answer is lost
      // (the API may have acted), never a refusal.
      text = await response.text();
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason ?? error;
      const timedOut = timeout.aborted;
      if (idempotent && retriesLeft) {
        await wait(backoffMs(attempt));
        continue;
      }
      const what = timedOut ? `no answer within ${timeoutMs} ms` : describe(error);
      throw new BscPayNetworkError(`${call.method} ${call.path}: ${what}`, { cause: error, idempotencyKey, timedOut });
    }

    if (response.ok) return readEnvelope(response.status, text, idempotencyKey) as T;

    const retryAfter = retryAfterSeconds(response.headers.get("retry-after"));
    const limited = response.status === 429;
    const serverFailed = response.status >= 500;
    // A 429 was refused before anything happened: any call may be sent again. A 5xx may have acted.
    if (retriesLeft && (limited || (serverFailed && idempotent))) {
      const tooLong = limited && retryAfter !== undefined && retryAfter > (options.maxRetryAfterSeconds ?? 60);
      if (!tooLong) {
        await wait(limited && retryAfter !== undefined ? retryAfter * 1000 : backoffMs(attempt));
        continue;
      }
    }
    throw readError(response.status, text, idempotencyKey, retryAfter);
  }
}

/**
 * A random UUID v4. crypto.randomUUID exists only in secure contexts (https, localhost); a shop page
 * on plain http still has getRandomValues.
 */
export function randomKey(): string {
  if (typeof globalThis.crypto.randomUUID === "function") return globalThis.crypto.randomUUID();
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The default wait: its timer is cleared on abort, so an aborted call does not keep a process alive. */
function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** The wait between attempts, cut short by the caller's abort (which is then what the call throws). */
async function waitUnlessAborted(
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (!signal) return sleep(ms);
  signal.throwIfAborted();
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([sleep(ms, signal), aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** The API path at `baseUrl`'s origin: the gateway serves from its root (checkout.js too: react/load-checkout.ts). */
function buildUrl(baseUrl: string, path: string, query: Call["query"]): string {
  const url = new URL(path, baseUrl);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
  }
  return url.toString();
}

/** Full jitter over an exponential ceiling: retries of many clients do not arrive in step. */
function backoffMs(attempt: number): number {
  const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** Retry-After in seconds: a number of seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  const value = header?.trim() ?? "";
  if (value === "") return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  // Only what looks like an HTTP date (a weekday or month name and a time of day): Date.parse
  // would read "1.5" or "-1" as a year in the past, and the wait would be none.
  if (!/[A-Za-z]{3}/.test(value) || !/\d{1,2}:\d{2}:\d{2}/.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

function readEnvelope(status: number, text: string, idempotencyKey: string | undefined): unknown {
  const parsed = parseJson(text);
  if (parsed && typeof parsed === "object" && (parsed as { success?: unknown }).success === true) return (parsed as { data: unknown }).data;
  throw new BscPayApiError({ status, code: "UNEXPECTED_RESPONSE", message: `HTTP ${status} without BSC Pay's envelope`, idempotencyKey });
}

function readError(status: number, text: string, idempotencyKey: string | undefined, retryAfter: number | undefined): BscPayApiError {
  const parsed = parseJson(text) as {
    success?: unknown;
    error?: { code?: ApiErrorCode; message?: string; reason?: ApiErrorReason; details?: { path?: string; message: string }[] };
  } | null;
  const error = parsed?.success === false ? parsed.error : undefined;
  return new BscPayApiError({
    status,
    code: typeof error?.code === "string" ? error.code : "UNEXPECTED_RESPONSE",
    message: typeof error?.message === "string" ? error.message : `HTTP ${status} without BSC Pay's envelope`,
    reason: error?.reason,
    details: error?.details,
    retryAfterSeconds: retryAfter,
    idempotencyKey,
  });
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ? `${error.message} (${cause.code})` : error.message;
  }
  return String(error);
}
