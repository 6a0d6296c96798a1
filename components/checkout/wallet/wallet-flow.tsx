"use client";

/**
 * The steps of "Pay with wallet" as the payer sees them: one button per wallet found (EIP-6963,
 * the injected provider as a fallback), then connect, switch to the session's chain (adding it
 * when the wallet lacks it), check the balances, confirm in the wallet, and follow the transaction
 * to its receipt and confirmations.
 */
import { CheckCircle2, ExternalLink, Loader2, RotateCw, Wallet } from "lucide-react";
import { useState } from "react";
import { type Address, type Chain, createPublicClient, custom, type EIP1193Provider, formatUnits, type Hex } from "viem";
import { type Connector, useConfig, useConnectors } from "wagmi";
import { connect, switchChain } from "wagmi/actions";
import { isNativeToken } from "@/lib/engine/chain/native";
import { Friendly, WrongChain, walletErrorWords } from "@/lib/web/checkout/wallet-error-words";
import type { CheckoutMessages } from "@/lib/web/i18n/checkout-messages";
import { fill, formatDecimal, type NumberSymbols } from "@/lib/web/i18n/locale";
import { isConnected, payNative, payToken, type WalletPayment } from "./wallet-transfer";

type Step =
  | { kind: "idle" }
  | { kind: "connecting" | "switching" | "checking" | "confirm" }
  | { kind: "sent"; hash: Hex }
  | { kind: "included"; hash: Hex; block: bigint }
  | { kind: "error"; message: string };

export function WalletFlow({
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

  async function pay(connector: Connector) {
    let checking = false;
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
      checking = true;
      const onConfirm = () => {
        checking = false;
        setStep({ kind: "confirm" });
      };
      const transfer = { config, client, account, connector, chain, payment, remaining, amount, t, locale, onConfirm };
      const hash = isNativeToken(payment.tokenAddress) ? await payNative(transfer) : await payToken(transfer);
      setStep({ kind: "sent", hash });
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 1_000 });
      if (receipt.status !== "success") throw new Friendly(t.errorReverted);
      setStep({ kind: "included", hash, block: receipt.blockNumber });
    } catch (error) {
      setStep({ kind: "error", message: walletErrorWords(error, t, payment.networkName, { checking }) });
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
