import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { BaseError, ContractFunctionExecutionError, ContractFunctionZeroDataError, HttpRequestError, UserRejectedRequestError } from "viem";
import { describe, expect, it } from "vitest";
import { StatusBlock, type StatusProps } from "@/components/checkout/status-block";
import type { CheckoutView } from "@/lib/web/checkout/checkout-view";
import { Friendly, WrongChain, walletErrorWords } from "@/lib/web/checkout/wallet-error-words";
import { CHECKOUT_MESSAGES } from "@/lib/web/i18n/checkout-messages";
import { LOCALES } from "@/lib/web/i18n/locale";

const en = CHECKOUT_MESSAGES.en;
const zeroData = new ContractFunctionExecutionError(new ContractFunctionZeroDataError({ functionName: "balanceOf" }), {
  abi: [],
  functionName: "balanceOf",
  args: ["0x0000000000000000000000000000000000000001"],
  contractAddress: "0x0000000000000000000000000000000000000002",
});
const nodeDown = new HttpRequestError({ url: "https://bsc-rpc.example.com/v1/SECRET-KEY", body: { method: "eth_call" }, status: 502 });

describe("'Pay with wallet' never shows a wallet's or a node's own text", () => {
  it("the viem errors here do carry it (else this test proves nothing)", () => {
    expect(zeroData.message).toContain('The contract function "balanceOf" returned no data');
    expect(nodeDown.message).toContain("SECRET-KEY");
  });

  it.each(LOCALES)("%s: a balance check the chain did not answer reads as the page's own sentence", (locale) => {
    const t = CHECKOUT_MESSAGES[locale];
    for (const error of [zeroData, nodeDown]) {
      const said = walletErrorWords(error, t, "BNB Smart Chain", { checking: true });
      expect(said).toBe(t.errorChainRead);
      expect(said).not.toMatch(/balanceOf|returned no data|HTTP|SECRET|https?:|viem|\{[a-z]+\}/);
    }
  });

  it.each(LOCALES)("%s: any other failure is the page's sentence, without the wallet's words", (locale) => {
    const t = CHECKOUT_MESSAGES[locale];
    const said = walletErrorWords(new BaseError("Internal JSON-RPC error. Details: nonce too low"), t, "BNB Smart Chain");
    expect(said).toBe(t.errorOther);
    expect(said).not.toMatch(/JSON-RPC|nonce|\{[a-z]+\}/);
  });

  it("keeps the refusals it can name: rejected in the wallet, another chain, its own friendly ones", () => {
    expect(walletErrorWords(new UserRejectedRequestError(new Error("User denied")), en, "BNB Smart Chain")).toBe(en.errorRejected);
    expect(walletErrorWords(new WrongChain(), en, "BNB Smart Chain")).toBe(en.errorWrongChain.replace("{network}", "BNB Smart Chain"));
    expect(walletErrorWords(new Friendly("Your wallet holds 1 USDT"), en, "BNB Smart Chain", { checking: true })).toBe(
      "Your wallet holds 1 USDT",
    );
  });
});

describe("a partial payment of a price in money", () => {
  const view = {
    sessionId: "6f1c2b9e-2a51-4c4b-9d6e-3f1a2b3c4d5e",
    amount: "10",
    amountUnits: "10000000000000000000",
    token: "USDT",
    createdAt: "2026-01-01T00:00:00.000Z",
    fiat: { currency: "EUR", fiatAmount: "9.20", tokenChosen: true, underpayBps: 0, quotes: [] },
  } as unknown as CheckoutView;
  const status = {
    status: "pending",
    receivedAmount: "2.5",
    remainingAmount: "7.5",
    remainingUnits: "7500000000000000000",
    expiresAt: "2026-01-01T00:15:00.000Z",
  } as StatusProps["status"];
  const render = (overrides: Partial<StatusProps> = {}) =>
    renderToStaticMarkup(
      createElement(StatusBlock, {
        status,
        view,
        t: en,
        amount: (v: string) => v,
        now: null,
        intlTag: "en-US",
        explorerTxBase: null,
        returnUrl: null,
        redirectIn: null,
        ...overrides,
      }),
    );

  it("says what arrived in tokens, and what is left of the price in its money (rounded up)", () => {
    const html = render();
    expect(html).toContain("Received 2.5 of 10 USDT — send 7.5 more");
    expect(html).toMatch(/data-testid="partial-fiat"[^>]*>6\.90 EUR of the 9\.20 EUR price is still to pay\./);
  });

  it("a price in tokens has no money figure", () => {
    expect(render({ view: { ...view, fiat: null } })).not.toContain("partial-fiat");
  });
});
