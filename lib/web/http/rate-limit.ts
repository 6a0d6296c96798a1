/**
 * Token buckets in this process: `capacity` requests at once, refilled at `capacity` per
 * `periodMs`. With several instances behind a balancer each enforces its own share — fine for
 * the per-API-key request rate and webhook redeliveries, which pace callers. Limits that guard
 * accounts or money (sign-in, sign-up, link Pay, refund claims) are shared in PostgreSQL:
 * lib/accounts/abuse/limits.ts.
 */

import { clearAllCounters } from "../../accounts/abuse/counters";
import { getConfig } from "../../base/config";
import { commonRefusal } from "../../base/errors";
import { getDb } from "../../db";

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** Past this many tracked keys the oldest are forgotten, so a flood of addresses cannot exhaust memory. */
const MAX_KEYS = 100_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly what: string,
    private readonly limit: () => { capacity: number; periodMs: number },
  ) {}

  consume(key: string, now = Date.now()): void {
    const { capacity, periodMs } = this.limit();
    const perMs = capacity / periodMs;
    const bucket = this.buckets.get(key) ?? { tokens: capacity, updatedAt: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.updatedAt) * perMs);
    bucket.updatedAt = now;
    this.buckets.delete(key); // re-inserted last: the map's order is least recently used first
    this.buckets.set(key, bucket);
    // biome-ignore lint/style/noNonNullAssertion: the map holds more than MAX_KEYS entries here, so it has a first key
    if (this.buckets.size > MAX_KEYS) this.buckets.delete(this.buckets.keys().next().value!);
    if (bucket.tokens < 1) {
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
      throw commonRefusal("RATE_LIMITED", "rate-limited", `too many ${this.what}; retry in ${retryAfter} s`, undefined, {
        "retry-after": String(retryAfter),
      });
    }
    bucket.tokens -= 1;
  }

  reset(): void {
    this.buckets.clear();
  }
}

const LIMITERS_KEY = Symbol.for("bsc-pay.rate-limiters");
type Limiters = {
  apiKey: RateLimiter;
  redeliver: RateLimiter;
};

/** Webhook redeliveries a user may ask for per minute (API and dashboard together). */
export const REDELIVERIES_PER_MINUTE = 30;
type Holder = { [LIMITERS_KEY]?: Limiters };

export function limiters(): Limiters {
  const holder = globalThis as Holder;
  holder[LIMITERS_KEY] ??= {
    apiKey: new RateLimiter("requests for this API key", () => ({ capacity: getConfig().rateLimitPerMinute, periodMs: 60_000 })),
    redeliver: new RateLimiter("webhook redeliveries for this account", () => ({ capacity: REDELIVERIES_PER_MINUTE, periodMs: 60_000 })),
  };
  return holder[LIMITERS_KEY];
}

export function consumeRateLimit(apiKeyId: number, now = Date.now()): void {
  limiters().apiKey.consume(String(apiKeyId), now);
}

/** Tests: a fresh process and a fresh set of shared counters. */
export async function resetRateLimits(): Promise<void> {
  const all = limiters();
  for (const limiter of Object.values(all)) limiter.reset();
  await clearAllCounters(await getDb());
}
