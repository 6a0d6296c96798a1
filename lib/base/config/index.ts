/**
 * The service's configuration, parsed once from the environment (docs/design.md §3).
 * A bad value throws ConfigError whose message is one line naming the variable; it never
 * contains the value of a secret.
 */

import { envSchema } from "./env";

/** Fixed development mnemonic: allowed only while `local` is the only network. */
export const DEV_MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
export const DEV_NEXTAUTH_SECRET = "bsc-pay-dev-secret-not-for-production";
/** Mnemonics published in tools and test vectors: anyone can derive their keys. */
const WELL_KNOWN_MNEMONICS = [DEV_MNEMONIC, "test test test test test test test test test test test junk"];

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = "ConfigError";
  }
}

export type NetworkName = "bsc" | "bsc-testnet" | "local";

export interface NetworkConfig {
  name: NetworkName;
  chainId: number;
  /** Empty for an embedded anvil: its URL is known only once it has started. */
  rpcUrls: string[];
  /** Where new heads are followed (*_WS_URL, and ws(s):// entries of the RPC list); the embedded anvil's is derived. */
  wsUrls: string[];
  /** When a transfer or withdrawal counts (lib/engine/chain/confirmations.ts): blocks including its own, or BSC's finalized tag. */
  finality: { kind: "blocks"; blocks: number } | { kind: "finalized" };
  embedded: boolean;
  /**
   * The highest gas price (wei) the service signs at on this network (MAX_GAS_PRICE, or
   * <NETWORK>_MAX_GAS_PRICE, in gwei): above it nothing is signed, and re-pricing stops at it.
   */
  maxGasPrice: bigint;
}

/** Defaults of MAX_GAS_PRICE in gwei: BSC's floor is ≈0.05 gwei, so 10 is far above a normal day and far below a runaway answer. */
export const DEFAULT_MAX_GAS_PRICE_GWEI: Record<NetworkName, number> = { bsc: 10, "bsc-testnet": 50, local: 100 };
const GWEI = 1_000_000_000n;

export interface Config {
  nodeEnv: "development" | "production" | "test";
  databaseUrl: string | undefined;
  pgliteDir: string;
  networks: NetworkConfig[];
  localChain: { mode: "anvil" | "external"; port: number; stateDir: string } | null;
  masterMnemonic: string;
  usingDevMnemonic: boolean;
  sessionTtlSeconds: number;
  /** How long a fiat session's quotes hold, and so the session itself (docs/design.md §23). */
  quoteTtlSeconds: number;
  /**
   * A fiat session short by less than this many basis points of its price is paid (default 0: the
   * whole price, less at most one base unit per token paid with — the quotes' rounding). A domain
   * may set its own.
   */
  fiatUnderpayBps: number;
  /** A transfer after a fiat session's window counts at its block's rate if that is within this many basis points of the quote (default 100: 1 %). */
  fiatRateToleranceBps: number;
  /** How long a refund's claim URL waits for the payer's address. */
  refundClaimTtlSeconds: number;
  /** How long a new payout address waits before payments go to it (none while the merchant has never been paid, on any domain). */
  payoutChangeDelaySeconds: number;
  scanIntervalMs: number;
  /** How often open checkout pages re-read their sessions without an announced change (NOTIFY brings a read forward). */
  checkoutRefreshMs: number;
  /** How long GET /api/health answers from its last result (it costs RPC calls; it is public). */
  healthCacheMs: number;
  bearerTokenTtlSeconds: number;
  /** Requests per minute per API key (token bucket; bursts up to the same number). */
  rateLimitPerMinute: number;
  nextAuthSecret: string;
  siteUrl: string;
  jobs: { mode: "embedded" | "inngest"; eventKey?: string; signingKey?: string; dev: boolean };
  port: number;
  logLevel: string;
  /** Merchants may register any ERC-20, not only the operator's catalogue (single-merchant installs). */
  openTokenRegistration: boolean;
  /** Upper bounds on the gas of any transaction the service pays for. */
  maxSweepGas: bigint;
  maxWithdrawalGas: bigint;
  /** Items per payout transaction (PAYOUT_CHUNK_SIZE); unset: as many as half a block's gas limit holds. */
  payoutChunkSize: number | null;
  /**
   * batched: sweeps go out in EIP-7702 batches of up to `batchSize` deposits from one gas-tank
   * transaction, formed once `batchWaitMs` passed since the oldest became due (or the batch is
   * full); networks without EIP-7702 stay classic. classic: a gas top-up and a sweep per deposit.
   */
  sweep: { mode: "batched" | "classic"; batchSize: number; batchWaitMs: number };
  registration: "open" | "closed";
  /** Per client IP: sign-ups per hour, and token / sign-in attempts per minute. */
  registerRateLimitPerHour: number;
  loginRateLimitPerMinute: number;
  /**
   * Proxies in front of the server that append to X-Forwarded-For: 0 = the client is the socket's
   * peer (the header is ignored: a direct client writes what it likes into it); n = the n-th entry
   * from the right of X-Forwarded-For (lib/web/http/client-ip.ts).
   */
  trustedProxyHops: number;
  /** Open unpaid sessions one payment link may have at once; beyond it "Pay" answers 429 (lib/domain/payment-links). */
  linkOpenSessions: number;
  /** Webhooks may go to http:// and to loopback / private addresses (a development install). */
  webhookAllowPrivate: boolean;
  /** Bearer token for /api/metrics; unset → metrics only for loopback clients. */
  metricsToken: string | null;
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    // biome-ignore lint/style/noNonNullAssertion: zod reports at least one issue for every failed parse
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(String(issue.path[0] ?? "environment"), issue.message);
  }
  const e = parsed.data;

  const networks: NetworkConfig[] = [];
  const maxGasPrice = (name: NetworkName, own: bigint | undefined) =>
    own ?? e.MAX_GAS_PRICE ?? BigInt(DEFAULT_MAX_GAS_PRICE_GWEI[name]) * GWEI;
  if (e.BSC_RPC_URL.length > 0)
    networks.push({
      ...remoteNetwork("bsc", 56, e.BSC_RPC_URL, e.BSC_WS_URL, finalityOf(e.CONFIRMATIONS, 3)),
      maxGasPrice: maxGasPrice("bsc", e.BSC_MAX_GAS_PRICE),
    });
  if (e.BSC_TESTNET_RPC_URL.length > 0)
    networks.push({
      ...remoteNetwork("bsc-testnet", 97, e.BSC_TESTNET_RPC_URL, e.BSC_TESTNET_WS_URL, finalityOf(e.CONFIRMATIONS, 3)),
      maxGasPrice: maxGasPrice("bsc-testnet", e.BSC_TESTNET_MAX_GAS_PRICE),
    });
  const hasProductionNetwork = networks.length > 0;

  const localMode = resolveLocalMode(e.LOCAL_CHAIN, e.LOCAL_RPC_URL, hasProductionNetwork, e.NODE_ENV);
  if (localMode !== null) {
    networks.push({
      name: "local",
      chainId: 31337,
      rpcUrls: localMode === "external" ? e.LOCAL_RPC_URL : [],
      wsUrls: localMode === "external" ? e.LOCAL_RPC_URL.filter(isWebSocketUrl) : [],
      finality: finalityOf(e.CONFIRMATIONS, 1),
      embedded: localMode === "anvil",
      maxGasPrice: maxGasPrice("local", e.LOCAL_MAX_GAS_PRICE),
    });
  }

  if (hasProductionNetwork && e.MASTER_MNEMONIC === undefined)
    throw new ConfigError("MASTER_MNEMONIC", "is required when BSC_RPC_URL or BSC_TESTNET_RPC_URL is set");
  if (hasProductionNetwork && e.NEXTAUTH_SECRET === undefined)
    throw new ConfigError("NEXTAUTH_SECRET", "is required when BSC_RPC_URL or BSC_TESTNET_RPC_URL is set");
  if (e.JOBS === "inngest" && e.INNGEST_DEV === undefined && e.INNGEST_SIGNING_KEY === undefined)
    throw new ConfigError("INNGEST_SIGNING_KEY", "is required when JOBS=inngest (or set INNGEST_DEV=1)");

  // Anyone could sign up and register a contract whose fake Transfer logs the gas tank pays to sweep.
  if (e.OPEN_TOKEN_REGISTRATION && e.REGISTRATION === "open")
    throw new ConfigError(
      "OPEN_TOKEN_REGISTRATION",
      "=true needs REGISTRATION=closed: with open sign-up anyone could register a token whose fake transfers the gas tank pays to sweep (create accounts with npm run admin -- create-user)",
    );
  if (e.NODE_ENV === "production" && hasProductionNetwork && e.NEXTAUTH_SECRET === DEV_NEXTAUTH_SECRET)
    throw new ConfigError("NEXTAUTH_SECRET", "is the development value; generate one, e.g. openssl rand -base64 32");
  const mnemonic = (e.MASTER_MNEMONIC ?? DEV_MNEMONIC).split(/\s+/).join(" ");
  if (e.NODE_ENV === "production" && networks.some((n) => n.chainId === 56) && WELL_KNOWN_MNEMONICS.includes(mnemonic.toLowerCase()))
    throw new ConfigError(
      "MASTER_MNEMONIC",
      "is a well-known test mnemonic whose keys anyone can derive; refusing to hold funds on chain 56 with it",
    );

  const port = e.PORT ?? 3000;
  return {
    nodeEnv: e.NODE_ENV,
    databaseUrl: e.DATABASE_URL,
    pgliteDir: e.PGLITE_DIR,
    networks,
    localChain: localMode === null ? null : { mode: localMode, port: e.LOCAL_CHAIN_PORT ?? 8545, stateDir: e.LOCAL_CHAIN_STATE_DIR },
    masterMnemonic: mnemonic,
    usingDevMnemonic: e.MASTER_MNEMONIC === undefined,
    sessionTtlSeconds: e.SESSION_TTL_SECONDS ?? 900,
    quoteTtlSeconds: e.QUOTE_TTL_SECONDS ?? 900,
    fiatUnderpayBps: e.FIAT_UNDERPAY_BPS ?? 0,
    fiatRateToleranceBps: e.FIAT_RATE_TOLERANCE_BPS ?? 100,
    refundClaimTtlSeconds: e.REFUND_CLAIM_TTL_SECONDS ?? 30 * 24 * 3600,
    payoutChangeDelaySeconds: e.PAYOUT_CHANGE_DELAY ?? 24 * 3600,
    scanIntervalMs: e.SCAN_INTERVAL_MS ?? 1000,
    checkoutRefreshMs: e.CHECKOUT_REFRESH_MS ?? 1000,
    healthCacheMs: e.HEALTH_CACHE_MS ?? 2000,
    bearerTokenTtlSeconds: e.BEARER_TOKEN_TTL_SECONDS ?? 86_400,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE ?? 3000,
    nextAuthSecret: e.NEXTAUTH_SECRET ?? DEV_NEXTAUTH_SECRET,
    siteUrl: (e.NEXTAUTH_URL ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    jobs: {
      mode: e.JOBS,
      eventKey: e.INNGEST_EVENT_KEY,
      signingKey: e.INNGEST_SIGNING_KEY,
      dev: e.INNGEST_DEV !== undefined && e.INNGEST_DEV !== "0",
    },
    port,
    logLevel: e.LOG_LEVEL,
    openTokenRegistration: e.OPEN_TOKEN_REGISTRATION,
    maxSweepGas: BigInt(e.MAX_SWEEP_GAS ?? 150_000),
    maxWithdrawalGas: BigInt(e.MAX_WITHDRAWAL_GAS ?? 150_000),
    payoutChunkSize: e.PAYOUT_CHUNK_SIZE ?? null,
    sweep: { mode: e.SWEEP_MODE, batchSize: e.SWEEP_BATCH_SIZE ?? 100, batchWaitMs: e.SWEEP_BATCH_WAIT_MS ?? 3000 },
    registration: e.REGISTRATION,
    registerRateLimitPerHour: e.REGISTER_RATE_LIMIT_PER_HOUR ?? 10,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE ?? 20,
    trustedProxyHops: e.TRUSTED_PROXY_HOPS ?? 0,
    linkOpenSessions: e.LINK_OPEN_SESSIONS ?? 100,
    metricsToken: e.METRICS_TOKEN ?? null,
    // A shop on this machine is normal while only the local chain runs; with real money, never by default.
    webhookAllowPrivate:
      e.WEBHOOK_ALLOW_PRIVATE === undefined
        ? networks.length > 0 && networks.every((n) => n.name === "local")
        : e.WEBHOOK_ALLOW_PRIVATE === "true" || e.WEBHOOK_ALLOW_PRIVATE === "1",
  };
}

function remoteNetwork(name: NetworkName, chainId: number, rpcUrls: string[], wsUrls: string[], finality: NetworkConfig["finality"]) {
  const ws = wsUrls.filter(isWebSocketUrl);
  if (ws.length < wsUrls.length)
    throw new ConfigError(name === "bsc" ? "BSC_WS_URL" : "BSC_TESTNET_WS_URL", "must list ws:// or wss:// URLs");
  return { name, chainId, rpcUrls, wsUrls: [...new Set([...ws, ...rpcUrls.filter(isWebSocketUrl)])], finality, embedded: false };
}

function isWebSocketUrl(url: string): boolean {
  return /^wss?:\/\//i.test(url);
}

function finalityOf(setting: number | "finalized" | undefined, fallback: number): NetworkConfig["finality"] {
  return setting === "finalized" ? { kind: "finalized" } : { kind: "blocks", blocks: setting ?? fallback };
}

function resolveLocalMode(
  localChain: "anvil" | "off" | undefined,
  localRpcUrls: string[],
  hasProductionNetwork: boolean,
  nodeEnv: string,
): "anvil" | "external" | null {
  if (localChain === "off") return null;
  if (localRpcUrls.length > 0) return "external";
  if (localChain === "anvil") return "anvil";
  // Default: the embedded chain only when nothing real is configured and this is not production.
  return !hasProductionNetwork && nodeEnv !== "production" ? "anvil" : null;
}

const CONFIG_KEY = Symbol.for("bsc-pay.config");
type ConfigHolder = { [CONFIG_KEY]?: Config };

/** The process-wide configuration, parsed on first use. */
export function getConfig(): Config {
  const holder = globalThis as ConfigHolder;
  holder[CONFIG_KEY] ??= parseConfig(process.env);
  return holder[CONFIG_KEY];
}

/** Tests and scripts that build their own configuration install it here. */
export function setConfig(config: Config): void {
  (globalThis as ConfigHolder)[CONFIG_KEY] = config;
}
