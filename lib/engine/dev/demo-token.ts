import {
  type Abi,
  type Address,
  createTestClient,
  createWalletClient,
  getContractAddress,
  type Hex,
  http,
  keccak256,
  parseEther,
  parseUnits,
  publicActions,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import artifact from "../chain/contracts/demo-token.json";

export const demoTokenAbi = artifact.abi as Abi;
export const demoTokenBytecode = artifact.bytecode as Hex;

/**
 * The local demo token is deployed by a fixed key as its first transaction, so its address is
 * the same on every fresh anvil: a database that survives an anvil reset still points at it.
 */
const DEPLOYER_KEY = keccak256(toHex("bsc-pay/local-demo-token-deployer"));
export const demoDeployer = privateKeyToAccount(DEPLOYER_KEY);
export const DEMO_TOKEN_ADDRESS: Address = getContractAddress({ from: demoDeployer.address, nonce: 0n });
export const DEMO_TOKEN = { name: "Demo USD", symbol: "DUSD", decimals: 18 } as const;

/** anvil's well-known default accounts (mnemonic "test test … junk"): the demo payers. */
export const ANVIL_DEFAULT_KEYS: readonly [Hex, Hex, Hex] = [
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
];

/** Makes sure the demo token exists on the local chain (deploying and minting on a fresh chain). */
export async function ensureDemoToken(rpcUrl: string): Promise<Address> {
  const client = createTestClient({ mode: "anvil", transport: http(rpcUrl) }).extend(publicActions);
  const code = await client.getCode({ address: DEMO_TOKEN_ADDRESS });
  if (code && code !== "0x") return DEMO_TOKEN_ADDRESS;

  const nonce = await client.getTransactionCount({ address: demoDeployer.address });
  if (nonce !== 0) throw new Error("the demo token deployer has sent transactions but the token is missing");
  await client.setBalance({ address: demoDeployer.address, value: parseEther("100") });
  const chainId = await client.getChainId();
  const wallet = createWalletClient({
    account: demoDeployer,
    chain: {
      id: chainId,
      name: "local",
      nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    },
    transport: http(rpcUrl),
  });
  // Explicit nonces: everything goes into one or two blocks instead of one block per transaction.
  const hashes = [
    await wallet.deployContract({
      abi: demoTokenAbi,
      bytecode: demoTokenBytecode,
      args: [DEMO_TOKEN.name, DEMO_TOKEN.symbol, DEMO_TOKEN.decimals],
      nonce: 0,
    }),
  ];
  for (const [i, key] of ANVIL_DEFAULT_KEYS.entries()) {
    hashes.push(
      await wallet.writeContract({
        address: DEMO_TOKEN_ADDRESS,
        abi: demoTokenAbi,
        functionName: "mint",
        args: [privateKeyToAccount(key).address, parseUnits("1000000", DEMO_TOKEN.decimals)],
        nonce: i + 1,
        gas: 100_000n,
      }),
    );
  }
  for (const hash of hashes) {
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    if (receipt.status !== "success") throw new Error(`demo token set-up transaction ${hash} reverted`);
  }
  return DEMO_TOKEN_ADDRESS;
}

/** Tops up an address with local BNB when it runs low (the gas tank, on the local chain only). */
export async function ensureLocalBalance(rpcUrl: string, address: Address, minimum = parseEther("10")): Promise<void> {
  const client = createTestClient({ mode: "anvil", transport: http(rpcUrl) }).extend(publicActions);
  const balance = await client.getBalance({ address });
  if (balance < minimum) await client.setBalance({ address, value: parseEther("1000") });
}
