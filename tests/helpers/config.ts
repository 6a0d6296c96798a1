import { type Config, parseConfig, setConfig } from "@/lib/base/config";

// A BIP-39 test vector; deliberately not anvil's mnemonic, whose accounts are the test payers.
export const TEST_MNEMONIC = "legal winner thank year wave sausage worth useful legal winner thank yellow";

/**
 * How the engine sweeps in this run: batched (EIP-7702, the default) or classic. CI runs the engine
 * suite once more with SWEEP_MODE=classic, so both paths keep today's guarantees.
 */
export const SWEEP_MODE = process.env.SWEEP_MODE === "classic" ? "classic" : "batched";

/** Installs a configuration built from `env` (plus test defaults) as the process configuration. */
export function useConfig(env: Record<string, string | undefined>): Config {
  // Batches form at once in tests (no waiting for company); a test can ask for a wait.
  // Health answers fresh in tests (health.test.ts checks its cache with HEALTH_CACHE_MS set).
  const config = parseConfig({
    NODE_ENV: "test",
    MASTER_MNEMONIC: TEST_MNEMONIC,
    SWEEP_MODE,
    SWEEP_BATCH_WAIT_MS: "0",
    HEALTH_CACHE_MS: "0",
    ...env,
  });
  setConfig(config);
  return config;
}
