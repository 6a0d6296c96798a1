/**
 * Transactions are signed for a chain id (EIP-155). At start-up EVERY RPC URL of a network (its
 * fallback list: a later one answers when an earlier one fails, so each may end up signing and
 * watching) is asked for its id:
 *   - 0, or a chain other than the network's (Ethereum behind BSC_RPC_URL, a testnet URL for
 *     bsc): the service refuses to start — it would sign for, and watch, the wrong chain;
 *   - a development chain (31337 anvil/hardhat, 1337 geth/ganache dev) behind bsc or bsc-testnet:
 *     refused too (a node anyone can run, with balances anyone can mint), except in the test
 *     suite (NODE_ENV=test), where anvil stands in for BSC; there its id is used, with a warning;
 *   - URLs of one network that disagree: refused (the fallback would switch chains mid-flight);
 *   - no answer now: the configured id is kept (the node may come back).
 * Errors name the variable and the URL's position and host, never its path (provider keys live there).
 */

import { createPublicClient, http, webSocket } from "viem";
import { getConfig, type NetworkConfig } from "../../base/config";
import { log } from "../../base/log";
import { rpcUrlsOf } from "./networks";

export const DEVELOPMENT_CHAIN_IDS: ReadonlySet<number> = new Set([31337, 1337]);

const VARIABLE: Record<NetworkConfig["name"], string> = {
  bsc: "BSC_RPC_URL",
  "bsc-testnet": "BSC_TESTNET_RPC_URL",
  local: "LOCAL_RPC_URL",
};

export async function verifyChainIds(networks: NetworkConfig[]): Promise<void> {
  const allowDevelopment = getConfig().nodeEnv === "test";
  await Promise.all(networks.map((network) => verifyNetwork(network, allowDevelopment)));
}

async function verifyNetwork(network: NetworkConfig, allowDevelopment: boolean): Promise<void> {
  const urls = rpcUrlsOf(network);
  const answers = await Promise.all(urls.map((url) => chainIdAt(url)));
  let development: number | null = null;
  for (const [i, actual] of answers.entries()) {
    // biome-ignore lint/style/noNonNullAssertion: answers has one entry per URL
    const where = `${VARIABLE[network.name]} (entry ${i + 1}, ${hostOf(urls[i]!)})`;
    if (actual === null) {
      log.warn({ network: network.name, entry: i + 1 }, "could not read an RPC URL's chain id at start-up; using the configured one");
      continue;
    }
    if (actual === network.chainId) continue;
    if (actual === 0)
      throw new Error(`${where}: the RPC node of ${network.name} reports chain id 0; refusing to sign for it (check its URL)`);
    if (!DEVELOPMENT_CHAIN_IDS.has(actual))
      throw new Error(
        `${where}: the RPC node of ${network.name} is on chain ${actual}, not ${network.chainId}; refusing to start (check its URL)`,
      );
    if (network.name !== "local" && !allowDevelopment)
      throw new Error(
        `${where}: the RPC node of ${network.name} is a development chain (id ${actual}), not BNB Smart Chain (${network.chainId}); refusing to start (check its URL)`,
      );
    if (development !== null && development !== actual)
      throw new Error(
        `${where}: the RPC URLs of ${network.name} are on different chains (${development} and ${actual}); refusing to start`,
      );
    development = actual;
  }
  if (development === null) return;
  if (answers.some((a) => a === network.chainId))
    throw new Error(
      `${VARIABLE[network.name]}: the RPC URLs of ${network.name} are on different chains (${network.chainId} and ${development}); refusing to start`,
    );
  log.warn(
    { network: network.name, expected: network.chainId, actual: development },
    "the RPC node is a development chain; signing for the node's chain id",
  );
  network.chainId = development;
}

async function chainIdAt(url: string): Promise<number | null> {
  const transport = url.startsWith("ws") ? webSocket(url, { timeout: 5000, retryCount: 0 }) : http(url, { timeout: 5000, retryCount: 0 });
  const client = createPublicClient({ transport });
  try {
    return await client.getChainId();
  } catch {
    return null;
  } finally {
    if (url.startsWith("ws")) await closeSocket(client.transport as SocketTransport);
  }
}

type SocketTransport = { getRpcClient?: () => Promise<{ close: () => void }> };

async function closeSocket(transport: SocketTransport): Promise<void> {
  try {
    (await transport.getRpcClient?.())?.close();
  } catch {
    // Nothing to close: the socket never opened.
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "unparsable URL";
  }
}
