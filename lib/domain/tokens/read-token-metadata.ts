import { type Address, erc20Abi } from "viem";
import { publicClientFor } from "../../engine/chain/networks";
import { tokenRefusal } from "./reasons";

export interface TokenMetadata {
  decimals: number;
  symbol: string;
  name: string;
}

/** decimals(), symbol() and name() of an ERC-20, or VALIDATION_ERROR saying which one is missing. */
export async function readTokenMetadata(network: string, address: Address): Promise<TokenMetadata> {
  const client = publicClientFor(network);
  let code: string | undefined;
  try {
    code = await client.getCode({ address });
  } catch {
    throw tokenRefusal("BLOCKCHAIN_ERROR", "token-rpc-unavailable", `the ${network} RPC did not answer; try again later`);
  }
  if (!code || code === "0x") {
    throw tokenRefusal("VALIDATION_ERROR", "token-no-contract", `no contract is deployed at ${address} on ${network}`);
  }
  const read = async <T>(functionName: "decimals" | "symbol" | "name"): Promise<T | undefined> => {
    try {
      return (await client.readContract({ address, abi: erc20Abi, functionName })) as T;
    } catch {
      return undefined;
    }
  };
  const [decimals, symbol, name] = await Promise.all([read<number>("decimals"), read<string>("symbol"), read<string>("name")]);
  if (decimals === undefined || decimals > 36) {
    throw tokenRefusal("VALIDATION_ERROR", "token-not-erc20", `the contract at ${address} does not answer ERC-20 decimals()`);
  }
  if (symbol === undefined || symbol.trim() === "") {
    throw tokenRefusal("VALIDATION_ERROR", "token-not-erc20", `the contract at ${address} does not answer ERC-20 symbol()`);
  }
  return { decimals, symbol: printable(symbol).slice(0, 32), name: printable(name ?? symbol).slice(0, 100) };
}

/** A hostile contract's symbol may carry control characters meant for terminals or logs. */
function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a token's name and symbol are shown to people: control and bidi characters go
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, "").trim();
}
