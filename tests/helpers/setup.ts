export {};

// Every test file starts from the environment it declares, never from the developer's shell.
for (const name of [
  "DATABASE_URL",
  "BSC_RPC_URL",
  "BSC_TESTNET_RPC_URL",
  "LOCAL_RPC_URL",
  "LOCAL_CHAIN",
  "MASTER_MNEMONIC",
  "NEXTAUTH_SECRET",
  "NEXTAUTH_URL",
  "JOBS",
]) {
  delete process.env[name];
}
