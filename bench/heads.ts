/**
 * The benchmark's own newHeads subscription on anvil: when each block reached this process, the
 * moment detection is timed from (within a few ms of anvil mining it on this machine). Timing from
 * the client's receipt instead would leave out the time the client took to poll for it.
 */
import WebSocket from "ws";

export interface HeadClock {
  /** When this process heard of `block` (waits for it if it has not arrived yet). */
  arrivedAt(block: bigint): Promise<number>;
  close(): void;
}

export async function watchHeads(rpcUrl: string): Promise<HeadClock> {
  const arrived = new Map<bigint, number>();
  const socket = new WebSocket(rpcUrl.replace(/^http/, "ws"));
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  socket.on("message", (data) => {
    const now = Date.now();
    const message = JSON.parse(data.toString()) as { method?: string; params?: { result?: { number?: string } } };
    const number = message.params?.result?.number;
    if (message.method === "eth_subscription" && number) arrived.set(BigInt(number), now);
  });
  socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] }));
  return {
    arrivedAt: async (block) => {
      for (let waited = 0; !arrived.has(block); waited += 5) {
        if (waited > 30_000) throw new Error(`block ${block} never announced`);
        await new Promise((r) => setTimeout(r, 5));
      }
      return arrived.get(block) as number;
    },
    close: () => socket.terminate(),
  };
}
