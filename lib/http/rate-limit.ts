import { getConfig } from "../config";
import { AppError } from "../errors";

/**
 * Per-API-key token bucket, in this process: `limit` requests a minute, bursts up to `limit`.
 * With several instances behind a balancer each enforces its own share.
 */
interface Bucket {
  tokens: number;
  updatedAt: number;
}

const BUCKETS_KEY = Symbol.for("bsc-pay.rate-limit");
type Holder = { [BUCKETS_KEY]?: Map<number, Bucket> };

function buckets(): Map<number, Bucket> {
  const holder = globalThis as Holder;
  holder[BUCKETS_KEY] ??= new Map();
  return holder[BUCKETS_KEY];
}

export function consumeRateLimit(apiKeyId: number, now = Date.now()): void {
  const limit = getConfig().rateLimitPerMinute;
  const perMs = limit / 60_000;
  const map = buckets();
  const bucket = map.get(apiKeyId) ?? { tokens: limit, updatedAt: now };
  bucket.tokens = Math.min(limit, bucket.tokens + (now - bucket.updatedAt) * perMs);
  bucket.updatedAt = now;
  map.set(apiKeyId, bucket);
  if (bucket.tokens < 1) {
    const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
    throw new AppError("RATE_LIMITED", `rate limit of ${limit} requests a minute exceeded; retry in ${retryAfter} s`, undefined, {
      "retry-after": String(retryAfter),
    });
  }
  bucket.tokens -= 1;
}

export function resetRateLimits(): void {
  buckets().clear();
}
