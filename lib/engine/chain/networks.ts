/**
 * Configured networks and their viem clients. RPC goes through viem `fallback` over every URL
 * of the network, in the configured order, with timeouts and bounded retries.
 */

import { type Chain, createPublicClient, defineChain, fallback, http, type PublicClient, webSocket } from "viem";
import { bsc, bscTestnet } from "viem/chains";
import { getConfig, type NetworkConfig, type NetworkName } from "../../base/config";
import { instrumentTransport } from "./instrument-transport";

const localChain = defineChain({
  id: 31337,
  name: "BSC Pay local (anvil)",
  nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
  rpcUrls: { default: { http: ["http://127.0.0.1:8545"] } },
});

const CHAINS: Record<NetworkName, Chain> = { bsc, "bsc-testnet": bscTestnet, local: localChain };

const RUNTIME_KEY = Symbol.for("bsc-pay.chain-runtime");
type Runtime = { localRpcUrl?: string; clients: Map<string, PublicClient> };
type RuntimeHolder = { [RUNTIME_KEY]?: Runtime };

function runtime(): Runtime {
  const holder = globalThis as RuntimeHolder;
  holder[RUNTIME_KEY] ??= { clients: new Map() };
  return holder[RUNTIME_KEY];
}

/** The embedded anvil's URL becomes known only once it has started. */
export function setLocalRpcUrl(url: string): void {
  runtime().localRpcUrl = url;
}

export function listNetworks(): NetworkConfig[] {
  return getConfig().networks;
}

export function isNetworkName(value: string): value is NetworkName {
  return listNetworks().some((n) => n.name === value);
}

export function networkConfig(name: string): NetworkConfig | undefined {
  return listNetworks().find((n) => n.name === name);
}

/** The network's configuration, for code that only runs for configured networks: an unknown name is a bug. */
export function requireNetworkConfig(name: string): NetworkConfig {
  const network = networkConfig(name);
  if (!network) throw new Error(`network "${name}" is not configured`);
  return network;
}

export function rpcUrlsOf(network: NetworkConfig): string[] {
  if (!network.embedded) return network.rpcUrls;
  const url = runtime().localRpcUrl;
  return url ? [url] : [];
}

/** Where the network's new heads can be followed: its WebSocket endpoints (the embedded anvil serves one on its RPC port). */
export function wsUrlsOf(network: NetworkConfig): string[] {
  if (!network.embedded) return network.wsUrls;
  const url = runtime().localRpcUrl;
  return url ? [url.replace(/^http/, "ws")] : [];
}

export function chainOf(network: NetworkConfig): Chain {
  return { ...CHAINS[network.name], id: network.chainId };
}

export function publicClientFor(name: string): PublicClient {
  const network = networkConfig(name);
  if (!network) throw new Error(`network ${name} is not configured`);
  const urls = rpcUrlsOf(network);
  if (urls.length === 0) throw new Error(`network ${name} has no RPC URL yet`);
  const cacheKey = `${name} ${network.chainId} ${urls.join(",")}`;
  const cached = runtime().clients.get(cacheKey);
  if (cached) return cached;
  const client = createPublicClient({
    chain: chainOf(network),
    transport: fallback(
      urls.map((url) =>
        instrumentTransport(
          name,
          url.startsWith("ws") ? webSocket(url, { timeout: 10_000, retryCount: 1 }) : http(url, { timeout: 10_000, retryCount: 1 }),
        ),
      ),
      { retryCount: 2 },
    ),
    // The scanner must never see a stale head: no block-number cache.
    cacheTime: 0,
    pollingInterval: 500,
  }) as PublicClient;
  runtime().clients.set(cacheKey, client);
  return client;
}
