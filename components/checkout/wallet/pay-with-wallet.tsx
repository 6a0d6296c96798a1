"use client";

/**
 * "Pay with wallet": EIP-6963 discovery (one button per wallet found, the injected provider as a
 * fallback), connect, switch to the session's chain (adding it when the wallet lacks it), check
 * the token and BNB balances, then an ERC-20 transfer of the remaining amount to the deposit
 * address — or, for BNB itself, a plain payment of it (`sendTransaction`). Loaded only on the
 * checkout page, in the browser. Here: wagmi and its query client for the session's chain; the
 * steps the payer sees in wallet-flow.tsx, the balance checks and the transfer in wallet-transfer.ts.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { type Chain, defineChain } from "viem";
import { bsc, bscTestnet } from "viem/chains";
import { createConfig, createStorage, http, injected, noopStorage, WagmiProvider } from "wagmi";
import type { CheckoutMessages } from "@/lib/web/i18n/checkout-messages";
import type { NumberSymbols } from "@/lib/web/i18n/locale";
import { WalletFlow } from "./wallet-flow";
import type { WalletPayment } from "./wallet-transfer";

export default function PayWithWallet(props: { payment: WalletPayment; messages: CheckoutMessages; locale: NumberSymbols }) {
  const chain = useMemo(
    () => chainFor(props.payment.chainId, props.payment.localRpcUrl),
    [props.payment.chainId, props.payment.localRpcUrl],
  );
  // No storage: inside a shop's iframe (checkout.js) the browser may deny localStorage outright, and
  // nothing here needs to survive a reload.
  const [config] = useState(() =>
    createConfig({
      chains: [chain],
      connectors: [injected()],
      multiInjectedProviderDiscovery: true,
      ssr: true,
      storage: createStorage({ storage: noopStorage }),
      transports: { [chain.id]: http() },
    }),
  );
  const [queryClient] = useState(() => new QueryClient());
  return (
    <WagmiProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <WalletFlow {...props} chain={chain} />
      </QueryClientProvider>
    </WagmiProvider>
  );
}

function chainFor(chainId: number, localRpcUrl: string | null): Chain {
  if (chainId === bsc.id) return bsc;
  if (chainId === bscTestnet.id) return bscTestnet;
  return defineChain({
    id: chainId,
    name: "BSC Pay local",
    nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
    rpcUrls: { default: { http: [localRpcUrl ?? "http://127.0.0.1:8545"] } },
  });
}
