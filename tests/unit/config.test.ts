import { describe, expect, it } from "vitest";
import { ConfigError, DEV_MNEMONIC, DEV_NEXTAUTH_SECRET, parseConfig } from "@/lib/base/config";

const MNEMONIC = "legal winner thank year wave sausage worth useful legal winner thank yellow";
const SECRET = "a-long-enough-production-secret";

function configError(env: Record<string, string>): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("parseConfig", () => {
  it("defaults to PGlite, the embedded local chain and the dev mnemonic in development", () => {
    const config = parseConfig({});
    expect(config.databaseUrl).toBeUndefined();
    expect(config.pgliteDir).toBe(".data/pglite");
    expect(config.networks).toEqual([
      {
        name: "local",
        chainId: 31337,
        rpcUrls: [],
        wsUrls: [],
        finality: { kind: "blocks", blocks: 1 },
        embedded: true,
        maxGasPrice: 100_000_000_000n,
      },
    ]);
    expect(config.localChain).toEqual({ mode: "anvil", port: 8545, stateDir: ".data" });
    expect(config.masterMnemonic).toBe(DEV_MNEMONIC);
    expect(config.usingDevMnemonic).toBe(true);
    expect(config.sessionTtlSeconds).toBe(900);
    expect(config.scanIntervalMs).toBe(1000);
    expect(config.checkoutRefreshMs).toBe(1000);
    expect(config.jobs.mode).toBe("embedded");
    expect(config.port).toBe(3000);
    expect(config.siteUrl).toBe("http://localhost:3000");
  });

  it("has no local chain in production unless asked for", () => {
    expect(parseConfig({ NODE_ENV: "production" }).networks).toEqual([]);
    expect(parseConfig({ NODE_ENV: "production", LOCAL_CHAIN: "anvil" }).networks.map((n) => n.name)).toEqual(["local"]);
  });

  it("configures bsc and bsc-testnet from comma-separated RPC lists with 3 confirmations", () => {
    const config = parseConfig({
      BSC_RPC_URL: "https://a.example, https://b.example",
      BSC_TESTNET_RPC_URL: "wss://t.example",
      MASTER_MNEMONIC: MNEMONIC,
      NEXTAUTH_SECRET: SECRET,
    });
    expect(config.networks).toEqual([
      {
        name: "bsc",
        chainId: 56,
        rpcUrls: ["https://a.example", "https://b.example"],
        wsUrls: [],
        finality: { kind: "blocks", blocks: 3 },
        embedded: false,
        maxGasPrice: 10_000_000_000n,
      },
      // A wss:// entry of the RPC list also follows new heads.
      {
        name: "bsc-testnet",
        chainId: 97,
        rpcUrls: ["wss://t.example"],
        wsUrls: ["wss://t.example"],
        finality: { kind: "blocks", blocks: 3 },
        embedded: false,
        maxGasPrice: 50_000_000_000n,
      },
    ]);
    expect(config.localChain).toBeNull();
    expect(config.usingDevMnemonic).toBe(false);
  });

  it("uses an external node as network local when LOCAL_RPC_URL is set", () => {
    const config = parseConfig({ LOCAL_RPC_URL: "http://127.0.0.1:9999", CONFIRMATIONS: "0" });
    expect(config.networks).toEqual([
      {
        name: "local",
        chainId: 31337,
        rpcUrls: ["http://127.0.0.1:9999"],
        wsUrls: [],
        finality: { kind: "blocks", blocks: 0 },
        embedded: false,
        maxGasPrice: 100_000_000_000n,
      },
    ]);
    expect(config.localChain?.mode).toBe("external");
  });

  it("reads MAX_GAS_PRICE in gwei for every network, a network's own variable first, and refuses a bad value", () => {
    const both = {
      BSC_RPC_URL: "https://a.example",
      BSC_TESTNET_RPC_URL: "https://t.example",
      MASTER_MNEMONIC: MNEMONIC,
      NEXTAUTH_SECRET: SECRET,
    };
    const caps = (env: Record<string, string>) => parseConfig({ ...both, ...env }).networks.map((n) => [n.name, n.maxGasPrice]);
    expect(caps({})).toEqual([
      ["bsc", 10_000_000_000n],
      ["bsc-testnet", 50_000_000_000n],
    ]);
    expect(caps({ MAX_GAS_PRICE: "5" })).toEqual([
      ["bsc", 5_000_000_000n],
      ["bsc-testnet", 5_000_000_000n],
    ]);
    expect(caps({ MAX_GAS_PRICE: "5", BSC_MAX_GAS_PRICE: "0.5" })).toEqual([
      ["bsc", 500_000_000n],
      ["bsc-testnet", 5_000_000_000n],
    ]);
    expect(parseConfig({ LOCAL_MAX_GAS_PRICE: "2.000000001" }).networks[0]!.maxGasPrice).toBe(2_000_000_001n);
    for (const bad of ["0", "-1", "abc", "1e3", "0.0000000001"])
      expect(configError({ ...both, BSC_MAX_GAS_PRICE: bad }).message).toMatch(/^Invalid configuration: BSC_MAX_GAS_PRICE must be/);
  });

  it("refuses a production network without MASTER_MNEMONIC or NEXTAUTH_SECRET", () => {
    expect(configError({ BSC_RPC_URL: "https://rpc.example", NEXTAUTH_SECRET: SECRET }).message).toBe(
      "Invalid configuration: MASTER_MNEMONIC is required when BSC_RPC_URL or BSC_TESTNET_RPC_URL is set",
    );
    expect(configError({ BSC_TESTNET_RPC_URL: "https://rpc.example", MASTER_MNEMONIC: MNEMONIC }).variable).toBe("NEXTAUTH_SECRET");
  });

  it.each([
    ["DATABASE_URL", "mysql://root@localhost/db"],
    ["DATABASE_URL", "not a url"],
    ["BSC_RPC_URL", "ftp://rpc.example"],
    ["SESSION_TTL_SECONDS", "abc"],
    ["SESSION_TTL_SECONDS", "10"],
    ["QUOTE_TTL_SECONDS", "10"],
    ["QUOTE_TTL_SECONDS", "90000"],
    ["FIAT_RATE_TOLERANCE_BPS", "1001"],
    ["FIAT_RATE_TOLERANCE_BPS", "-1"],
    ["SCAN_INTERVAL_MS", "1.5"],
    ["CHECKOUT_REFRESH_MS", "100"],
    ["CONFIRMATIONS", "-1"],
    ["PORT", "70000"],
    ["JOBS", "cron"],
    ["LOCAL_CHAIN", "ganache"],
    ["NEXTAUTH_SECRET", "short"],
    ["NEXTAUTH_URL", "localhost:3000"],
    ["OPEN_TOKEN_REGISTRATION", "yes"],
    ["MAX_SWEEP_GAS", "20000"],
    ["MAX_WITHDRAWAL_GAS", "1.5"],
    ["REGISTRATION", "invite"],
    ["SWEEP_MODE", "sometimes"],
    ["SWEEP_BATCH_SIZE", "0"],
    ["SWEEP_BATCH_SIZE", "500"],
    ["SWEEP_BATCH_WAIT_MS", "-1"],
  ])("names %s when its value %j is bad", (variable, value) => {
    const error = configError({ MASTER_MNEMONIC: MNEMONIC, NEXTAUTH_SECRET: SECRET, [variable]: value });
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(new RegExp(`^Invalid configuration: ${variable} `));
    expect(error.message.split("\n")).toHaveLength(1);
  });

  it("never prints a secret it rejects", () => {
    const badMnemonic = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima";
    const error = configError({ MASTER_MNEMONIC: badMnemonic });
    expect(error.variable).toBe("MASTER_MNEMONIC");
    expect(error.message).not.toContain("alpha");
    const secretError = configError({ NEXTAUTH_SECRET: "tiny-secret" });
    expect(secretError.message).not.toContain("tiny-secret");
  });

  it("refuses open token registration while anyone may sign up", () => {
    const error = configError({ OPEN_TOKEN_REGISTRATION: "true" });
    expect(error.variable).toBe("OPEN_TOKEN_REGISTRATION");
    expect(error.message).toContain("needs REGISTRATION=closed");
    expect(configError({ OPEN_TOKEN_REGISTRATION: "true", REGISTRATION: "open" }).variable).toBe("OPEN_TOKEN_REGISTRATION");
    expect(parseConfig({ OPEN_TOKEN_REGISTRATION: "true", REGISTRATION: "closed" }).openTokenRegistration).toBe(true);
    expect(parseConfig({ OPEN_TOKEN_REGISTRATION: "false" }).registration).toBe("open");
  });

  it("requires a signing key or dev mode for Inngest", () => {
    expect(configError({ JOBS: "inngest" }).variable).toBe("INNGEST_SIGNING_KEY");
    expect(parseConfig({ JOBS: "inngest", INNGEST_DEV: "1" }).jobs).toMatchObject({ mode: "inngest", dev: true });
  });

  it("treats empty values as unset", () => {
    expect(parseConfig({ DATABASE_URL: "", BSC_RPC_URL: " ", PORT: "" }).networks.map((n) => n.name)).toEqual(["local"]);
  });

  it("has money-safety defaults: catalogue only, 150000 gas caps, open sign-up with per-address limits", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      openTokenRegistration: false,
      maxSweepGas: 150_000n,
      maxWithdrawalGas: 150_000n,
      registration: "open",
      registerRateLimitPerHour: 10,
      loginRateLimitPerMinute: 20,
    });
    expect(config.sweep).toEqual({ mode: "batched", batchSize: 100, batchWaitMs: 3000 });
    expect(parseConfig({ SWEEP_MODE: "classic", SWEEP_BATCH_SIZE: "10", SWEEP_BATCH_WAIT_MS: "0" }).sweep).toEqual({
      mode: "classic",
      batchSize: 10,
      batchWaitMs: 0,
    });
    expect(parseConfig({ OPEN_TOKEN_REGISTRATION: "true", MAX_SWEEP_GAS: "90000", REGISTRATION: "closed" })).toMatchObject({
      openTokenRegistration: true,
      maxSweepGas: 90_000n,
      registration: "closed",
    });
  });

  describe("in production, refuses keys anyone can derive and the development secret", () => {
    const JUNK = "test test test test test test test test test test test junk";
    const bsc = { NODE_ENV: "production", BSC_RPC_URL: "https://bsc.example", NEXTAUTH_SECRET: SECRET };
    it.each([JUNK, DEV_MNEMONIC])("MASTER_MNEMONIC %s on chain 56", (mnemonic) => {
      const error = configError({ ...bsc, MASTER_MNEMONIC: mnemonic });
      expect(error.variable).toBe("MASTER_MNEMONIC");
      expect(error.message).not.toContain(mnemonic);
    });

    it("the development NEXTAUTH_SECRET", () => {
      expect(configError({ ...bsc, MASTER_MNEMONIC: MNEMONIC, NEXTAUTH_SECRET: DEV_NEXTAUTH_SECRET }).variable).toBe("NEXTAUTH_SECRET");
    });

    it("but lets a test mnemonic run on the testnet, or outside production", () => {
      expect(() =>
        parseConfig({ NODE_ENV: "production", BSC_TESTNET_RPC_URL: "https://t.example", NEXTAUTH_SECRET: SECRET, MASTER_MNEMONIC: JUNK }),
      ).not.toThrow();
      expect(() =>
        parseConfig({ NODE_ENV: "test", BSC_RPC_URL: "https://bsc.example", NEXTAUTH_SECRET: SECRET, MASTER_MNEMONIC: JUNK }),
      ).not.toThrow();
      expect(() => parseConfig({ ...bsc, MASTER_MNEMONIC: MNEMONIC })).not.toThrow();
    });
  });
});

describe("new heads over WebSocket (BSC_WS_URL, BSC_TESTNET_WS_URL)", () => {
  const env = { NODE_ENV: "test", MASTER_MNEMONIC: MNEMONIC, NEXTAUTH_SECRET: "0123456789abcdef0123" };

  it("follows the given endpoints, and wss:// entries of the RPC list, each once", () => {
    const config = parseConfig({
      ...env,
      BSC_RPC_URL: "https://a.example,wss://b.example",
      BSC_WS_URL: "wss://b.example,wss://c.example",
      BSC_TESTNET_RPC_URL: "https://t.example",
    });
    expect(config.networks.map((n) => [n.name, n.wsUrls])).toEqual([
      ["bsc", ["wss://b.example", "wss://c.example"]],
      ["bsc-testnet", []],
    ]);
  });

  it("refuses an http URL as a WebSocket endpoint", () => {
    expect(() => parseConfig({ ...env, BSC_RPC_URL: "https://a.example", BSC_WS_URL: "https://a.example" })).toThrow(
      "Invalid configuration: BSC_WS_URL must list ws:// or wss:// URLs",
    );
  });
});
