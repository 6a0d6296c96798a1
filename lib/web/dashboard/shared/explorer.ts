/** Links to a block explorer for a transaction or an address: the payment, withdrawal, payout, refund and checkout pages use them. */

/** Block explorers of the networks: none for the embedded chain. */
const EXPLORERS = new Map([
  ["bsc", "https://bscscan.com"],
  ["bsc-testnet", "https://testnet.bscscan.com"],
]);

export function explorerTxUrl(network: string, hash: string): string | null {
  const base = EXPLORERS.get(network);
  return base ? `${base}/tx/${hash}` : null;
}

export function explorerAddressUrl(network: string, address: string): string | null {
  const base = EXPLORERS.get(network);
  return base ? `${base}/address/${address}` : null;
}
