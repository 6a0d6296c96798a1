import type { Page } from "@playwright/test";
import { rpcUrl } from "./merchant";

/**
 * A browser wallet without a browser extension: an EIP-1193 provider injected into the page (and
 * announced over EIP-6963 as "Test Wallet") that answers account and chain requests itself and
 * forwards the rest to anvil, where its account is unlocked. It starts on Ethereum mainnet, so the
 * page has to switch it; `rejectSends` makes the first n transfers fail as a user rejection.
 */
export interface WalletOptions {
  account: string;
  rejectSends?: number;
  /** The first n transfers go out with too little gas: mined, and reverted on the chain. */
  starveSends?: number;
}

export async function injectWallet(page: Page, options: WalletOptions): Promise<void> {
  await page.exposeFunction("__anvilRpc", async (body: unknown) => {
    const res = await fetch(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return res.json();
  });
  await page.addInitScript(({ account, rejectSends, starveSends }) => {
    let chainId = "0x1";
    let rejections = rejectSends ?? 0;
    let starved = starveSends ?? 0;
    const sends: unknown[] = [];
    const listeners: Record<string, ((...args: unknown[]) => void)[]> = {};
    const emit = (event: string, value: unknown) => {
      for (const fn of listeners[event] ?? []) fn(value);
    };
    const calls: string[] = [];
    const provider = {
      async request({ method, params }: { method: string; params?: unknown[] }) {
        calls.push(method);
        switch (method) {
          case "eth_requestAccounts":
          case "eth_accounts":
            return [account];
          case "wallet_requestPermissions":
          case "wallet_getPermissions":
            return [{ parentCapability: "eth_accounts" }];
          case "wallet_revokePermissions":
            return null;
          case "eth_chainId":
            return chainId;
          case "net_version":
            return String(Number(chainId));
          case "wallet_switchEthereumChain":
            chainId = (params![0] as { chainId: string }).chainId;
            emit("chainChanged", chainId);
            return null;
          case "wallet_addEthereumChain":
            return null;
          // biome-ignore lint/suspicious/noFallthroughSwitchClause: it ends in the default case on purpose (see below)
          case "eth_sendTransaction":
            if (rejections > 0) {
              rejections--;
              throw Object.assign(new Error("User rejected the request."), { code: 4001 });
            }
            sends.push(params![0]);
            if (starved > 0) {
              starved--;
              params = [{ ...(params![0] as object), gas: "0x7530" }]; // 30,000: not enough for a transfer
            }
          // falls through: after the checks above it is sent like any call (the account is unlocked on anvil)
          default: {
            const res = (await (
              window as unknown as { __anvilRpc: (b: unknown) => Promise<{ result?: unknown; error?: { message: string; code: number } }> }
            ).__anvilRpc({
              jsonrpc: "2.0",
              id: Date.now(),
              method,
              params: params ?? [],
            })) as { result?: unknown; error?: { message: string; code: number } };
            if (res.error) throw Object.assign(new Error(res.error.message), { code: res.error.code });
            return res.result;
          }
        }
      },
      on(event: string, fn: (...args: unknown[]) => void) {
        listeners[event] = [...(listeners[event] ?? []), fn];
        return provider;
      },
      removeListener(event: string, fn: (...args: unknown[]) => void) {
        listeners[event] = (listeners[event] ?? []).filter((f) => f !== fn);
        return provider;
      },
    };
    Object.assign(window, { ethereum: provider, __walletCalls: calls, __walletSends: sends });
    const info = {
      uuid: "3f7d2e40-6f0b-4c39-9a1b-6d7f1c0e8a11",
      name: "Test Wallet",
      rdns: "dev.bscpay.testwallet",
      icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'%3E%3Crect width='10' height='10' fill='%23333'/%3E%3C/svg%3E",
    };
    const announce = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
    window.addEventListener("eip6963:requestProvider", announce);
    announce();
  }, options);
}
