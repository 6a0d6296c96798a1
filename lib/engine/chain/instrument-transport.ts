import type { Transport } from "viem";
import { metrics } from "../../base/metrics";
import { classifyRpcError } from "./rpc-errors";

/** Only methods this service calls become label values; anything else is "other" (bounded cardinality). */
const KNOWN_METHODS = new Set([
  "eth_blockNumber",
  "eth_getLogs",
  "eth_getBalance",
  "eth_call",
  "eth_estimateGas",
  "eth_gasPrice",
  "eth_chainId",
  "eth_getTransactionCount",
  "eth_getTransactionReceipt",
  "eth_getTransactionByHash",
  "eth_sendRawTransaction",
  "eth_getBlockByNumber",
  "eth_getBlockReceipts",
  "eth_maxPriorityFeePerGas",
  "eth_feeHistory",
  "eth_getCode",
]);

/** Counts every request of `inner` (one URL of a network) by method and outcome. */
export function instrumentTransport(network: string, inner: Transport): Transport {
  return (options) => {
    const transport = inner(options);
    return {
      ...transport,
      async request(args, requestOptions) {
        const method = KNOWN_METHODS.has(args.method) ? args.method : "other";
        try {
          const result = await transport.request(args, requestOptions);
          metrics().rpcRequests.inc({ network, method, outcome: "ok" });
          return result;
        } catch (error) {
          metrics().rpcRequests.inc({ network, method, outcome: classifyRpcError(error) });
          throw error;
        }
      },
    } as ReturnType<Transport>;
  };
}
