/**
 * Transactions are signed for a chain id (EIP-155). At start-up each node is asked for its id:
 *   - 0, or a chain other than the network's (Ethereum behind BSC_RPC_URL, a testnet URL for
 *     bsc): the service refuses to start — it would sign for, and watch, the wrong chain;
 *   - a development chain (31337 anvil/hardhat, 1337 geth/ganache dev) playing the network: its id
 *     is used, with a warning, so a local node can stand in for BSC in tests;
 *   - no answer now: the configured id is kept (the node may come back).
 */

import { createPublicClient, http } from "viem";
import type { NetworkConfig } from "../config";
import { log } from "../log";
import { rpcUrlsOf } from "./networks";

export const DEVELOPMENT_CHAIN_IDS: ReadonlySet<number> = new Set([31337, 1337]);

export async function verifyChainIds(networks: NetworkConfig[]): Promise<void> {
  await Promise.all(
    networks.map(async (network) => {
      const url = rpcUrlsOf(network)[0];
      if (!url || url.startsWith("ws")) return;
      let actual: number;
      try {
        actual = await createPublicClient({ transport: http(url, { timeout: 5000, retryCount: 0 }) }).getChainId();
      } catch {
        log.warn({ network: network.name }, "could not read the chain id at start-up; using the configured one");
        return;
      }
      if (actual === network.chainId) return;
      if (actual === 0) throw new Error(`the RPC node of ${network.name} reports chain id 0; refusing to sign for it (check its URL)`);
      if (!DEVELOPMENT_CHAIN_IDS.has(actual)) {
        throw new Error(`the RPC node of ${network.name} is on chain ${actual}, not ${network.chainId}; refusing to start (check its URL)`);
      }
      log.warn(
        { network: network.name, expected: network.chainId, actual },
        "the RPC node is a development chain; signing for the node's chain id",
      );
      network.chainId = actual;
    }),
  );
}
