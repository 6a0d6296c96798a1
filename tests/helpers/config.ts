import { parseConfig, setConfig, type Config } from "@/lib/config";

// A BIP-39 test vector; deliberately not anvil's mnemonic, whose accounts are the test payers.
export const TEST_MNEMONIC = "legal winner thank year wave sausage worth useful legal winner thank yellow";

/** Installs a configuration built from `env` (plus test defaults) as the process configuration. */
export function useConfig(env: Record<string, string | undefined>): Config {
  const config = parseConfig({ NODE_ENV: "test", MASTER_MNEMONIC: TEST_MNEMONIC, ...env });
  setConfig(config);
  return config;
}
