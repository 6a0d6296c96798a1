import { HttpRequestError, RpcRequestError, TimeoutError } from "viem";
import { describe, expect, it } from "vitest";
import { errorText, isTransientRpcError } from "@/lib/chain/transactions";

const body = { method: "eth_sendRawTransaction", params: ["0xf86c0a8502540be400825208945029"] }; // hex with "502" and "429" in it

describe("RPC error classification", () => {
  it("treats transport failures and rate limits as transient", () => {
    expect(isTransientRpcError(new HttpRequestError({ url: "http://node", status: 502, body }))).toBe(true);
    expect(isTransientRpcError(new TimeoutError({ url: "http://node", body }))).toBe(true);
    expect(isTransientRpcError(new RpcRequestError({ url: "http://node", body, error: { code: -32005, message: "rate limited" } }))).toBe(true);
  });

  it("treats a node's own refusal as final, whatever digits the request body holds", () => {
    const refused = new RpcRequestError({ url: "http://node", body, error: { code: -32000, message: "insufficient funds for gas * price + value" } });
    expect(isTransientRpcError(refused)).toBe(false);
    expect(errorText(refused)).toContain("insufficient funds");
    expect(errorText(refused)).not.toContain("0xf86c");
  });
});
