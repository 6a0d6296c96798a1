import { createPublicClient, http } from "viem";
import type { NetworkConfig } from "../config";
import { log } from "../log";
import { rpcUrlsOf } from "./networks";

/**
 * Transactions are signed for a chain id (EIP-155). A node that answers another id than the
 * network's usual one (an anvil playing BSC without --chain-id 56, a testnet URL in BSC_RPC_URL)
 * would refuse every signed transaction, so the node's own id is used, with a warning. A node
 * that does not answer now keeps the configured id.
 */
export async function verifyChainIds(networks: NetworkConfig[]): Promise<void> {
  await Promise.all(
    networks.map(async (network) => {
      const url = rpcUrlsOf(network)[0];
      if (!url || url.startsWith("ws")) return;
      try {
        const actual = await createPublicClient({ transport: http(url, { timeout: 5000, retryCount: 0 }) }).getChainId();
        if (actual !== network.chainId) {
          log.warn({ network: network.name, expected: network.chainId, actual }, "the RPC node reports another chain id; signing for the node's chain");
          network.chainId = actual;
        }
      } catch {
        log.warn({ network: network.name }, "could not read the chain id at start-up; using the configured one");
      }
    }),
  );
}
