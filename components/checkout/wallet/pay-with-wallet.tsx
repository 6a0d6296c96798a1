"use client";

/**
 * "Pay with wallet": EIP-6963 discovery (one button per wallet found, the injected provider as a
 * fallback), connect, switch to the session's chain (adding it when the wallet lacks it), check
 * the token and BNB balances, then an ERC-20 transfer of the remaining amount to the deposit
 * address — or, for BNB itself, a plain payment of it (`sendTransaction`). Loaded only on the
 * checkout page, in the browser.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { CheckCircle2, ExternalLink, Loader2, RotateCw, Wallet } from "lucide-react";
import { useMemo, useState } from "react";
import {
  type Address,
  type Chain,
  createPublicClient,
  custom,
  defineChain,
  type EIP1193Provider,
  erc20Abi,
  formatEther,
  formatUnits,
  type Hex,
} from "viem";
import { bsc, bscTestnet } from "viem/chains";
import { type Connector, createConfig, createStorage, http, injected, noopStorage, useConfig, useConnectors, WagmiProvider } from "wagmi";
import { connect, sendTransaction, switchChain, writeContract } from "wagmi/actions";
import { isNativeToken } from "@/lib/engine/chain/native";
import type { CheckoutMessages } from "@/lib/web/i18n/checkout-messages";
import { fill, formatDecimal, type NumberSymbols } from "@/lib/web/i18n/locale";

export interface WalletPayment {
  chainId: number;
  networkName: string;
  localRpcUrl: string | null;
  token: string;
  tokenAddress: string;
  decimals: number;
  depositAddress: string;
  remainingUnits: string;
  explorerTxBase: string | null;
  confirmationsRequired: number;
  head: number | null;
}

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

type Step =
  | { kind: "idle" }
  | { kind: "connecting" | "switching" | "checking" | "confirm" }
  | { kind: "sent"; hash: Hex }
  | { kind: "included"; hash: Hex; block: bigint }
  | { kind: "error"; message: string };

function WalletFlow({
  payment,
  messages: t,
  locale,
  chain,
}: {
  payment: WalletPayment;
  messages: CheckoutMessages;
  locale: NumberSymbols;
  chain: Chain;
}) {
  const config = useConfig();
  const connectors = useConnectors();
  const [step, setStep] = useState<Step>({ kind: "idle" });
  const remaining = BigInt(payment.remainingUnits);
  const amount = formatDecimal(formatUnits(remaining, payment.decimals), locale);

  // EIP-6963 wallets announce themselves with a name and icon; the bare injected provider is the fallback.
  const announced = connectors.filter((c) => c.id !== "injected");
  const hasInjected = typeof window !== "undefined" && "ethereum" in window;
  const choices = announced.length > 0 ? announced : connectors.filter((c) => c.id === "injected" && hasInjected);

  type Client = ReturnType<typeof createPublicClient>;

  /** Headroom over an estimate: the deposit address may be swept between the estimate and the payment. */
  const withHeadroom = (estimate: bigint) => (estimate * 13n) / 10n + 25_000n;

  async function payToken(client: Client, account: Address, connector: Connector): Promise<Hex> {
    const token = payment.tokenAddress as Address;
    const data = {
      address: token,
      abi: erc20Abi,
      functionName: "transfer",
      args: [payment.depositAddress as Address, remaining],
    } as const;
    const [balance, bnb, gasPrice] = await Promise.all([
      client.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [account] }),
      client.getBalance({ address: account }),
      client.getGasPrice(),
    ]);
    if (balance < remaining) throw tooLittle(balance);
    // Crediting a swept (now empty) balance costs ~17k gas more (a fresh storage slot): the headroom covers it.
    const gas = withHeadroom(await client.estimateContractGas({ ...data, account }).catch(() => 60_000n));
    const fee = gas * gasPrice;
    if (bnb < fee) throw new Friendly(fill(t.errorGas, { fee: formatDecimal(trimEther(fee), locale) }));
    setStep({ kind: "confirm" });
    return writeContract(config, { ...data, connector, account, chainId: chain.id, gas });
  }

  /** BNB itself: the amount and the fee both come out of the wallet's BNB. */
  async function payNative(client: Client, account: Address, connector: Connector): Promise<Hex> {
    const to = payment.depositAddress as Address;
    const [bnb, gasPrice] = await Promise.all([client.getBalance({ address: account }), client.getGasPrice()]);
    if (bnb < remaining) throw tooLittle(bnb);
    // A delegated deposit address runs its delegate's receive(): more than a plain 21,000.
    const gas = withHeadroom(await client.estimateGas({ account, to, value: remaining }).catch(() => 40_000n));
    const fee = gas * gasPrice;
    if (bnb < remaining + fee) throw new Friendly(fill(t.errorGas, { fee: formatDecimal(trimEther(fee), locale) }));
    setStep({ kind: "confirm" });
    return sendTransaction(config, { connector, account, chainId: chain.id, to, value: remaining, gas });
  }

  function tooLittle(balance: bigint): Friendly {
    return new Friendly(
      fill(t.errorTokenBalance, {
        balance: formatDecimal(formatUnits(balance, payment.decimals), locale),
        needed: amount,
        token: payment.token,
      }),
    );
  }

  async function pay(connector: Connector) {
    try {
      setStep({ kind: "connecting" });
      const connected = (await isConnected(connector))
        ? null
        : await connect(config, { connector, chainId: chain.id }).catch(async (error: unknown) => {
            // Connected, but switching during connect failed: switch on its own below.
            if ((error as { name?: string }).name === "ConnectorAlreadyConnectedError") return null;
            throw error;
          });
      const account = (connected?.accounts[0] ?? (await connector.getAccounts())[0]) as Address;
      if ((await connector.getChainId()) !== chain.id) {
        setStep({ kind: "switching" });
        await switchChain(config, { chainId: chain.id, connector });
        if ((await connector.getChainId()) !== chain.id) throw new WrongChain();
      }
      const client = createPublicClient({ chain, transport: custom((await connector.getProvider()) as EIP1193Provider) });
      setStep({ kind: "checking" });
      const hash = isNativeToken(payment.tokenAddress)
        ? await payNative(client, account, connector)
        : await payToken(client, account, connector);
      setStep({ kind: "sent", hash });
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 1_000 });
      if (receipt.status !== "success") throw new Friendly(t.errorReverted);
      setStep({ kind: "included", hash, block: receipt.blockNumber });
    } catch (error) {
      setStep({ kind: "error", message: describe(error, t, payment.networkName) });
    }
  }

  if (choices.length === 0) {
    return <p className="text-center text-sm text-muted-foreground">{t.noWallet}</p>;
  }
  if (step.kind === "idle") {
    return (
      <div className="grid gap-2">
        {choices.map((connector) => (
          <button
            key={connector.uid}
            type="button"
            onClick={() => pay(connector)}
            className="flex min-h-12 w-full items-center justify-center gap-2 rounded-xl bg-brand px-4 py-2.5 text-center text-base font-semibold text-brand-foreground shadow-sm transition-colors hover:bg-brand/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            {connector.icon ? (
              // eslint-disable-next-line @next/next/no-img-element -- a wallet's own data-URI icon
              <img src={connector.icon} alt="" width={22} height={22} className="rounded" />
            ) : (
              <Wallet className="size-5" aria-hidden />
            )}
            {fill(t.payWithWallet, {
              amount,
              token: payment.token,
              wallet: connector.id === "injected" ? t.browserWallet : connector.name,
            })}
          </button>
        ))}
      </div>
    );
  }
  if (step.kind === "error") {
    return (
      <div role="alert" className="grid gap-3 rounded-xl border border-destructive/30 bg-destructive/10 p-4 text-sm">
        <p className="text-destructive">{step.message}</p>
        <button
          type="button"
          onClick={() => setStep({ kind: "idle" })}
          className="inline-flex items-center justify-center gap-2 justify-self-start rounded-lg border bg-background px-3 py-1.5 font-medium"
        >
          <RotateCw className="size-4" aria-hidden /> {t.tryAgain}
        </button>
      </div>
    );
  }
  const hash = step.kind === "sent" || step.kind === "included" ? step.hash : null;
  const k =
    step.kind === "included" && payment.head !== null
      ? Math.max(1, Math.min(payment.confirmationsRequired, payment.head - Number(step.block) + 1))
      : 1;
  const label =
    step.kind === "connecting"
      ? t.connecting
      : step.kind === "switching"
        ? fill(t.switching, { network: payment.networkName })
        : step.kind === "checking"
          ? t.checking
          : step.kind === "confirm"
            ? t.confirmInWallet
            : step.kind === "sent"
              ? `${t.sent} · ${t.waitingReceipt}`
              : fill(t.confirming, { k, n: payment.confirmationsRequired });
  return (
    <div role="status" aria-live="polite" className="grid gap-2 rounded-xl border bg-muted/40 p-4 text-sm" data-wallet-step={step.kind}>
      <p className="flex items-center gap-2 font-medium">
        {step.kind === "included" ? (
          <CheckCircle2 className="size-4 text-success" aria-hidden />
        ) : (
          <Loader2 className="size-4 animate-spin" aria-hidden />
        )}
        {label}
      </p>
      {hash &&
        (payment.explorerTxBase ? (
          <a
            href={`${payment.explorerTxBase}${hash}`}
            target="_blank"
            rel="noreferrer"
            className="inline-flex items-center gap-1 font-mono text-xs break-all underline underline-offset-4"
          >
            {t.viewTransaction}: {hash.slice(0, 10)}…{hash.slice(-8)} <ExternalLink className="size-3" aria-hidden />
          </a>
        ) : (
          <span className="font-mono text-xs break-all text-muted-foreground" data-testid="wallet-tx">
            {hash}
          </span>
        ))}
    </div>
  );
}

async function isConnected(connector: Connector): Promise<boolean> {
  try {
    return (await connector.isAuthorized()) && (await connector.getAccounts()).length > 0;
  } catch {
    return false;
  }
}

class Friendly extends Error {}
class WrongChain extends Error {}

function describe(error: unknown, t: CheckoutMessages, network: string): string {
  if (error instanceof Friendly) return error.message;
  if (error instanceof WrongChain) return fill(t.errorWrongChain, { network });
  for (let e = error as { code?: number; name?: string; shortMessage?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === 4001 || e.name === "UserRejectedRequestError") return t.errorRejected;
    if (e.name === "ChainMismatchError" || e.name === "SwitchChainError" || e.code === 4902) return fill(t.errorWrongChain, { network });
  }
  const short = (error as { shortMessage?: string; message?: string }).shortMessage ?? (error as Error).message ?? String(error);
  // biome-ignore lint/style/noNonNullAssertion: split always returns at least one part
  return fill(t.errorOther, { message: short.split("\n")[0]!.slice(0, 160) });
}

function trimEther(wei: bigint): string {
  const [whole, fraction = ""] = formatEther(wei).split(".");
  // biome-ignore lint/style/noNonNullAssertion: split always returns at least one part
  return fraction ? `${whole}.${fraction.slice(0, 6).replace(/0+$/, "") || "0"}` : whole!;
}
