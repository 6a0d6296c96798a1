/**
 * Refund claim links in the SDK (the API's rules are in tests/integration/refund-claim-secrets.test.ts):
 * the link is in the creating answer only, `claimLink` issues a new one, and a creation whose
 * answer is a replay without the link — its own retry after a lost answer — asks for a new link.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../src/client.js";

interface Seen {
  method: string;
  url: string;
  key: string | undefined;
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Answers each request with the next of `replies` (status and data; `null`: hang up). */
async function scripted(replies: ({ status: number; data: unknown } | null)[]): Promise<{ baseUrl: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", key: req.headers["idempotency-key"] as string | undefined });
      const reply = replies[seen.length - 1];
      if (!reply) return req.socket.destroy();
      res.writeHead(reply.status, { "content-type": "application/json" }).end(JSON.stringify({ success: true, data: reply.data }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { baseUrl: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

const client = (baseUrl: string) => createClient({ apiKey: "bscp_live_test", baseUrl, sleep: async () => {} });
const claim = (claimUrl: string | null) => ({
  refundId: "r1",
  sessionId: "s1",
  status: "awaiting_address",
  claimUrl,
  claimLinkIssued: true,
});

describe("refund claim links", () => {
  it("claimLink asks for a new link of one refund", async () => {
    const { baseUrl, seen } = await scripted([{ status: 200, data: claim("https://pay.example/refund/r1?k=new") }]);
    expect((await client(baseUrl).refunds.claimLink("r/1")).claimUrl).toBe("https://pay.example/refund/r1?k=new");
    expect(seen).toEqual([{ method: "POST", url: "/api/v1/refund/r%2F1/claim-link", key: undefined }]);
  });

  it("a creation answers its link as it came, and asks for nothing more", async () => {
    const { baseUrl, seen } = await scripted([{ status: 201, data: claim("https://pay.example/refund/r1?k=first") }]);
    expect((await client(baseUrl).refunds.create("s1", { amount: "1" })).claimUrl).toBe("https://pay.example/refund/r1?k=first");
    expect(seen).toHaveLength(1);
  });

  it("a creation whose first answer was lost gets the replay without a link, and then a new link", async () => {
    const { baseUrl, seen } = await scripted([
      null, // the refund is made, its answer (and its link) lost
      { status: 201, data: claim(null) }, // the replay for the same Idempotency-Key: no link
      { status: 200, data: claim("https://pay.example/refund/r1?k=again") },
    ]);
    const refund = await client(baseUrl).refunds.create("s1", { amount: "1" });
    expect(refund.claimUrl).toBe("https://pay.example/refund/r1?k=again");
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      "POST /api/v1/payment/s1/refund",
      "POST /api/v1/payment/s1/refund",
      "POST /api/v1/refund/r1/claim-link",
    ]);
    expect(seen[1]!.key).toBe(seen[0]!.key);
  });

  it("a refund sent to an address has no link to ask for", async () => {
    const { baseUrl, seen } = await scripted([{ status: 201, data: { ...claim(null), status: "sending", claimLinkIssued: false } }]);
    expect((await client(baseUrl).refunds.create("s1", { toAddress: "0x1" })).status).toBe("sending");
    expect(seen).toHaveLength(1);
  });
});
