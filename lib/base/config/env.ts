/**
 * The environment's variables as the service reads them (docs/design.md §3): one zod schema, each
 * variable with the message a bad value gets. lib/base/config/index.ts turns the parsed values into the
 * Config the service uses.
 */
import { validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english";
import { z } from "zod";

const emptyToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

const optionalString = z.preprocess(emptyToUndefined, z.string().trim().optional());

const intInRange = (min: number, max: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "must be an integer" })
      .int({ error: "must be an integer" })
      .min(min, { error: `must be at least ${min}` })
      .max(max, { error: `must be at most ${max}` })
      .optional(),
  );

const booleanFlag = z.preprocess(
  emptyToUndefined,
  z
    .enum(["true", "false", "1", "0"], { error: 'must be "true" or "false"' })
    .optional()
    .transform((value) => value === "true" || value === "1"),
);

const rpcUrlList = optionalString.transform((value, ctx) => {
  if (value === undefined) return [];
  const urls = value
    .split(",")
    .map((url) => url.trim())
    .filter(Boolean);
  for (const url of urls) {
    if (!/^(https?|wss?):\/\/[^\s]+$/i.test(url) || !URL.canParse(url)) {
      ctx.addIssue({ code: "custom", message: "must be a comma-separated list of http(s) or ws(s) URLs" });
      return z.NEVER;
    }
  }
  return urls;
});

/** A gas price in gwei (decimals up to 1 wei), read as wei. */
const gweiPrice = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .regex(/^\d{1,7}(\.\d{1,9})?$/, { error: "must be a gas price in gwei, e.g. 5 or 0.5" })
    .transform((value) => {
      const [whole = "0", fraction = ""] = value.split(".");
      return BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0"));
    })
    .refine((wei) => wei > 0n, { error: "must be above 0 gwei" })
    .optional(),
);

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };
const MAX_PAYOUT_CHANGE_DELAY = 30 * 86_400;

/** Seconds ("86400") or a duration ("24h", "90m", "2d", "0"); 0 … 30 days. */
const durationSeconds = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const match = /^(\d{1,9})\s*([smhd]?)$/i.exec(value);
      const seconds = match ? Number(match[1]) * (DURATION_UNITS[(match[2] || "s").toLowerCase()] ?? 1) : Number.NaN;
      if (!Number.isSafeInteger(seconds) || seconds > MAX_PAYOUT_CHANGE_DELAY) {
        ctx.addIssue({ code: "custom", message: 'must be seconds or a duration such as "24h", "90m", "2d" (0 … 30 days)' });
        return z.NEVER;
      }
      return seconds;
    }),
);

export const envSchema = z.object({
  NODE_ENV: z.preprocess(emptyToUndefined, z.enum(["development", "production", "test"]).default("development")),
  DATABASE_URL: optionalString.refine((value) => value === undefined || (/^postgres(ql)?:\/\//i.test(value) && URL.canParse(value)), {
    message: "must be a postgres:// or postgresql:// URL",
  }),
  PGLITE_DIR: z.preprocess(emptyToUndefined, z.string().default(".data/pglite")),
  BSC_RPC_URL: rpcUrlList,
  BSC_TESTNET_RPC_URL: rpcUrlList,
  LOCAL_CHAIN: z.preprocess(emptyToUndefined, z.enum(["anvil", "off"], { error: 'must be "anvil" or "off"' }).optional()),
  LOCAL_RPC_URL: rpcUrlList,
  LOCAL_CHAIN_PORT: intInRange(1, 65535),
  LOCAL_CHAIN_STATE_DIR: z.preprocess(emptyToUndefined, z.string().default(".data")),
  MASTER_MNEMONIC: optionalString.refine((value) => value === undefined || validateMnemonic(value.split(/\s+/).join(" "), wordlist), {
    message: "must be a valid BIP-39 English mnemonic",
  }),
  CONFIRMATIONS: z.preprocess(
    emptyToUndefined,
    z
      .union([z.literal("finalized"), z.coerce.number().int().min(0).max(1000)], {
        error: 'must be a whole number of blocks (1: the block that holds the transfer) or "finalized"',
      })
      .optional(),
  ),
  BSC_WS_URL: rpcUrlList,
  BSC_TESTNET_WS_URL: rpcUrlList,
  SESSION_TTL_SECONDS: intInRange(30, 7 * 24 * 3600),
  QUOTE_TTL_SECONDS: intInRange(30, 24 * 3600),
  FIAT_UNDERPAY_BPS: intInRange(0, 1000),
  FIAT_RATE_TOLERANCE_BPS: intInRange(0, 1000),
  REFUND_CLAIM_TTL_SECONDS: intInRange(60, 365 * 24 * 3600),
  PAYOUT_CHANGE_DELAY: durationSeconds,
  SCAN_INTERVAL_MS: intInRange(100, 3_600_000),
  CHECKOUT_REFRESH_MS: intInRange(250, 600_000),
  BEARER_TOKEN_TTL_SECONDS: intInRange(60, 30 * 24 * 3600),
  RATE_LIMIT_PER_MINUTE: intInRange(1, 100_000_000),
  NEXTAUTH_SECRET: optionalString.refine((value) => value === undefined || value.length >= 16, {
    message: "must be at least 16 characters",
  }),
  NEXTAUTH_URL: optionalString.refine((value) => value === undefined || (/^https?:\/\//i.test(value) && URL.canParse(value)), {
    message: "must be an http(s) URL",
  }),
  JOBS: z.preprocess(emptyToUndefined, z.enum(["embedded", "inngest"], { error: 'must be "embedded" or "inngest"' }).default("embedded")),
  INNGEST_EVENT_KEY: optionalString,
  INNGEST_SIGNING_KEY: optionalString,
  INNGEST_DEV: optionalString,
  PORT: intInRange(1, 65535),
  OPEN_TOKEN_REGISTRATION: booleanFlag,
  MAX_SWEEP_GAS: intInRange(21_000, 30_000_000),
  MAX_WITHDRAWAL_GAS: intInRange(21_000, 30_000_000),
  PAYOUT_CHUNK_SIZE: intInRange(1, 500),
  MAX_GAS_PRICE: gweiPrice,
  BSC_MAX_GAS_PRICE: gweiPrice,
  BSC_TESTNET_MAX_GAS_PRICE: gweiPrice,
  LOCAL_MAX_GAS_PRICE: gweiPrice,
  SWEEP_MODE: z.preprocess(
    emptyToUndefined,
    z.enum(["batched", "classic"], { error: 'must be "batched" or "classic"' }).default("batched"),
  ),
  SWEEP_BATCH_SIZE: intInRange(1, 100),
  SWEEP_BATCH_WAIT_MS: intInRange(0, 600_000),
  REGISTRATION: z.preprocess(emptyToUndefined, z.enum(["open", "closed"], { error: 'must be "open" or "closed"' }).default("open")),
  REGISTER_RATE_LIMIT_PER_HOUR: intInRange(1, 1_000_000),
  LOGIN_RATE_LIMIT_PER_MINUTE: intInRange(1, 1_000_000),
  TRUSTED_PROXY_HOPS: intInRange(0, 10),
  LINK_OPEN_SESSIONS: intInRange(1, 100_000),
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, { error: "must be at least 16 characters" }).optional()),
  HEALTH_CACHE_MS: intInRange(0, 60_000),
  WEBHOOK_ALLOW_PRIVATE: z.preprocess(
    emptyToUndefined,
    z.enum(["true", "false", "1", "0"], { error: 'must be "true" or "false"' }).optional(),
  ),
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info")),
});
