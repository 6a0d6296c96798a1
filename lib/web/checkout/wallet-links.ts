/**
 * Links that open this checkout inside a mobile wallet's own browser, where the wallet is
 * injected and "Pay with wallet" works: what a phone without a browser wallet offers instead of
 * a QR code it cannot scan with itself.
 */

/** Trust Wallet's coin id for BNB Smart Chain (SLIP-44 style id 20000714). */
export const TRUST_WALLET_BSC_COIN_ID = 20000714;

function pageUrl(url: string): URL {
  const parsed = new URL(url);
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error(`not a web page: ${url}`);
  parsed.hash = "";
  return parsed;
}

/**
 * The plain hosted checkout the wallet's browser should open, from the page the payer is on:
 * never the embed (`embed=1` is a page without the shop around it and no way back), and in the
 * language the payer chose (a cookie set here does not reach the wallet's browser).
 */
export function walletCheckoutUrl(url: string, lang: string): string {
  const page = pageUrl(url);
  page.searchParams.delete("embed");
  page.searchParams.set("lang", lang);
  return page.toString();
}

/** MetaMask's universal link: https://metamask.app.link/dapp/<host><path><query> (no scheme). */
export function metamaskLink(url: string): string {
  const page = pageUrl(url);
  return `https://metamask.app.link/dapp/${page.host}${page.pathname}${page.search}`;
}

/** Trust Wallet's deep link, opening the page in its browser on BNB Smart Chain. */
export function trustWalletLink(url: string): string {
  return `https://link.trustwallet.com/open_url?coin_id=${TRUST_WALLET_BSC_COIN_ID}&url=${encodeURIComponent(pageUrl(url).toString())}`;
}
