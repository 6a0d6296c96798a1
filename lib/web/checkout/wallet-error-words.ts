/**
 * What "Pay with wallet" says when it fails, in the payer's language: a refusal it made itself
 * (Friendly), a wallet on another chain, a request the payer rejected, the chain not answering the
 * balance check — and for anything else the page's own sentence. A wallet's or a node's own text
 * ("The contract function "balanceOf" returned no data …", an RPC URL, a request body) is never
 * shown: it is English whatever the page's language, and it explains nothing to a payer. Pure.
 */

import type { CheckoutMessages } from "../i18n/checkout-messages";
import { fill } from "../i18n/locale";

/** A refusal already in the payer's words. */
export class Friendly extends Error {}
/** The wallet stayed on another chain after the switch. */
export class WrongChain extends Error {}

type Link = { code?: number; name?: string; cause?: unknown };

export function walletErrorWords(
  error: unknown,
  t: CheckoutMessages,
  network: string,
  /** The failure came while the balances and the fee were read, before the wallet asked its owner. */
  { checking = false }: { checking?: boolean } = {},
): string {
  if (error instanceof Friendly) return error.message;
  if (error instanceof WrongChain) return fill(t.errorWrongChain, { network });
  for (let e = error as Link | undefined; e; e = e.cause as Link | undefined) {
    if (e.code === 4001 || e.name === "UserRejectedRequestError") return t.errorRejected;
    if (e.name === "ChainMismatchError" || e.name === "SwitchChainError" || e.code === 4902) return fill(t.errorWrongChain, { network });
  }
  return checking ? t.errorChainRead : t.errorOther;
}
