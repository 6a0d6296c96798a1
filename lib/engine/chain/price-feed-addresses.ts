/**
 * Chainlink price feeds (AggregatorV3Interface proxies) on BSC mainnet, network `bsc` (docs/design.md
 * §23). Migration 0031 seeds the catalogue's stablecoins and EUR/USD with these; BNB itself has no
 * catalogue row yet, so its feed lives here until native BNB does.
 *
 * Addresses: BNB Chain's own docs (BNB/USD) and Chainlink's "Binance Smart Chain Price Feeds" page,
 * as hard-coded by several independent protocols (Venus's oracle deploy scripts among them).
 * Heartbeats: 24 h is Chainlink's usual heartbeat for stablecoin and FX feeds; it could not be
 * confirmed from Chainlink's page for BSC itself — check data.chain.link before relying on it.
 * BNB/USD's heartbeat was not confirmed at all: null until an operator sets it.
 */

import type { Address } from "viem";

export interface KnownFeed {
  pair: string;
  address: Address;
  /** Seconds after which a round is stale; null: not confirmed. */
  heartbeatSeconds: number | null;
}

export const BSC_MAINNET_FEEDS = {
  BNB_USD: { pair: "BNB / USD", address: "0x0567F2323251f0Aab15c8dFb1967E4e8A7D42aeE", heartbeatSeconds: null },
  USDT_USD: { pair: "USDT / USD", address: "0xB97Ad0E74fa7d920791E90258A6E2085088b4320", heartbeatSeconds: 86_400 },
  USDC_USD: { pair: "USDC / USD", address: "0x51597f405303C4377E36123cBc172b13269EA163", heartbeatSeconds: 86_400 },
  EUR_USD: { pair: "EUR / USD", address: "0x0bf79F617988C472DcA68ff41eFe1338955b9A80", heartbeatSeconds: 86_400 },
} as const satisfies Record<string, KnownFeed>;

/** BNB/USD on BSC mainnet, for native BNB (not in the catalogue yet). */
export const BNB_USD_FEED_BSC: Address = BSC_MAINNET_FEEDS.BNB_USD.address;
