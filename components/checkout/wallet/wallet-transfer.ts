/**
 * The chain side of "Pay with wallet": check the wallet's token and BNB balances against the
 * transfer and its fee, then send an ERC-20 transfer of the remaining amount to the deposit address
 * — or, for BNB itself, a plain payment of it (`sendTransaction`). What went wrong is said by
 * lib/web/checkout/wallet-error-words.ts.
 */
import { type Address, type Chain, type createPublicClient, erc20Abi, formatEther, formatUnits, type Hex } from "viem";
import type { Config, Connector } from "wagmi";
import { sendTransaction, writeContract } from "wagmi/actions";
import { Friendly } from "@/lib/web/checkout/wallet-error-words";
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

type Client = ReturnType<typeof createPublicClient>;

/** One transfer: the connected wallet, the session's chain, the payment, and the page's words for a refusal. */
export interface Transfer {
  config: Config;
  client: Client;
  account: Address;
  connector: Connector;
  chain: Chain;
  payment: WalletPayment;
  remaining: bigint;
  /** The remaining amount as the page shows it. */
  amount: string;
  t: CheckoutMessages;
  locale: NumberSymbols;
  /** The balances are enough: the wallet is about to ask its owner to confirm. */
  onConfirm: () => void;
}

/** Headroom over an estimate: the deposit address may be swept between the estimate and the payment. */
const withHeadroom = (estimate: bigint) => (estimate * 13n) / 10n + 25_000n;

export async function payToken({
  config,
  client,
  account,
  connector,
  chain,
  payment,
  remaining,
  t,
  locale,
  amount,
  onConfirm,
}: Transfer): Promise<Hex> {
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
  if (balance < remaining) throw tooLittle(balance, { payment, t, locale, amount });
  // Crediting a swept (now empty) balance costs ~17k gas more (a fresh storage slot): the headroom covers it.
  const gas = withHeadroom(await client.estimateContractGas({ ...data, account }).catch(() => 60_000n));
  const fee = gas * gasPrice;
  if (bnb < fee) throw new Friendly(fill(t.errorGas, { fee: formatDecimal(trimEther(fee), locale) }));
  onConfirm();
  return writeContract(config, { ...data, connector, account, chainId: chain.id, gas });
}

/** BNB itself: the amount and the fee both come out of the wallet's BNB. */
export async function payNative({
  config,
  client,
  account,
  connector,
  chain,
  payment,
  remaining,
  t,
  locale,
  amount,
  onConfirm,
}: Transfer): Promise<Hex> {
  const to = payment.depositAddress as Address;
  const [bnb, gasPrice] = await Promise.all([client.getBalance({ address: account }), client.getGasPrice()]);
  if (bnb < remaining) throw tooLittle(bnb, { payment, t, locale, amount });
  // A delegated deposit address runs its delegate's receive(): more than a plain 21,000.
  const gas = withHeadroom(await client.estimateGas({ account, to, value: remaining }).catch(() => 40_000n));
  const fee = gas * gasPrice;
  if (bnb < remaining + fee) throw new Friendly(fill(t.errorGas, { fee: formatDecimal(trimEther(fee), locale) }));
  onConfirm();
  return sendTransaction(config, { connector, account, chainId: chain.id, to, value: remaining, gas });
}

function tooLittle(balance: bigint, { payment, t, locale, amount }: Pick<Transfer, "payment" | "t" | "locale" | "amount">): Friendly {
  return new Friendly(
    fill(t.errorTokenBalance, {
      balance: formatDecimal(formatUnits(balance, payment.decimals), locale),
      needed: amount,
      token: payment.token,
    }),
  );
}

export async function isConnected(connector: Connector): Promise<boolean> {
  try {
    return (await connector.isAuthorized()) && (await connector.getAccounts()).length > 0;
  } catch {
    return false;
  }
}

function trimEther(wei: bigint): string {
  const [whole, fraction = ""] = formatEther(wei).split(".");
  // biome-ignore lint/style/noNonNullAssertion: split always returns at least one part
  return fraction ? `${whole}.${fraction.slice(0, 6).replace(/0+$/, "") || "0"}` : whole!;
}
