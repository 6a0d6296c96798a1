/**
 * verifyWebhook against signatures made by the Standard Webhooks reference library (the one the
 * product signs with, lib/domain/webhooks/dispatch.ts). A delivery from the running product is
 * verified in tests/e2e/sdk.spec.ts.
 */
import { createHmac, randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { verifyWebhook, verifyWebhookDetailed, type WebhookEvent, type WebhookEventOf, WebhookVerificationError } from "../src/webhooks.js";

const secret = () => `whsec_${randomBytes(24).toString("base64")}`;
const SECRET = secret();
const body = JSON.stringify({
  type: "payment.completed",
  timestamp: "2026-11-28T10:00:00.000Z",
  data: { sessionId: "7b0c4c8e-2f7e-4a53-9c55-0d3c0f6c9a11", status: "completed", amount: "10", orderId: "ORD-1" },
});

function signed(options: { secrets?: string[]; at?: Date; payload?: string; id?: string } = {}) {
  const at = options.at ?? new Date();
  const id = options.id ?? "msg_abc";
  const signatures = (options.secrets ?? [SECRET]).map((s) => new Webhook(s).sign(id, at, options.payload ?? body));
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).reason;
}

describe("verifyWebhook", () => {
  it("returns the typed event of a genuine delivery", async () => {
    const event = await verifyWebhook(body, signed(), SECRET);
    expect(event.type).toBe("payment.completed");
    if (event.type === "payment.completed") expect(event.data.sessionId).toBe("7b0c4c8e-2f7e-4a53-9c55-0d3c0f6c9a11");
    const detailed = await verifyWebhookDetailed(Buffer.from(body), signed({ id: "msg_42" }), SECRET);
    expect(detailed.id).toBe("msg_42");
  });

  it("reads the headers from fetch's Headers and from Node's headers in any case", async () => {
    expect((await verifyWebhook(body, new Headers(signed()), SECRET)).type).toBe("payment.completed");
    const upper = Object.fromEntries(Object.entries(signed()).map(([k, v]) => [k.toUpperCase(), [v]]));
    expect((await verifyWebhook(body, upper, SECRET)).type).toBe("payment.completed");
  });

  it("refuses a tampered body, a foreign secret and a forged signature", async () => {
    expect(await refusal(verifyWebhook(body.replace('"10"', '"1000"'), signed(), SECRET))).toBe("signature-mismatch");
    expect(await refusal(verifyWebhook(body, signed({ secrets: [secret()] }), SECRET))).toBe("signature-mismatch");
    const headers = { ...signed(), "webhook-signature": `v1,${randomBytes(32).toString("base64")} v2,abc` };
    expect(await refusal(verifyWebhook(body, headers, SECRET))).toBe("signature-mismatch");
    // The id and timestamp are signed too: moving a signature to another event fails.
    expect(await refusal(verifyWebhook(body, { ...signed(), "webhook-id": "msg_other" }, SECRET))).toBe("signature-mismatch");
  });

  it("refuses a stale or future timestamp (a replay), within a tolerance that can be set", async () => {
    const now = new Date("2026-11-28T10:00:00Z");
    const old = signed({ at: new Date(now.getTime() - 301_000) });
    expect(await refusal(verifyWebhook(body, old, SECRET, { now }))).toBe("timestamp-too-old");
    expect(await refusal(verifyWebhook(body, signed({ at: new Date(now.getTime() + 301_000) }), SECRET, { now }))).toBe(
      "timestamp-too-new",
    );
    expect((await verifyWebhook(body, old, SECRET, { now, toleranceSeconds: 600 })).type).toBe("payment.completed");
    expect(await refusal(verifyWebhook(body, { ...signed(), "webhook-timestamp": "12e3" }, SECRET))).toBe("timestamp-invalid");
  });

  it("refuses to run with a tolerance or clock that would switch the replay check off", async () => {
    const old = signed({ at: new Date(Date.now() - 100_000_000) });
    for (const toleranceSeconds of [Number.NaN, Number(undefined), -1, Number.POSITIVE_INFINITY, "300" as unknown as number]) {
      await expect(verifyWebhook(body, old, SECRET, { toleranceSeconds })).rejects.toBeInstanceOf(TypeError);
    }
    await expect(verifyWebhook(body, old, SECRET, { now: new Date("not a date") })).rejects.toBeInstanceOf(TypeError);
  });

  it("takes an ArrayBuffer body (request.arrayBuffer()) and a secret with its env file's newline", async () => {
    const bytes = new TextEncoder().encode(body);
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    expect((await verifyWebhook(buffer, signed(), `${SECRET}\n`)).type).toBe("payment.completed");
  });

  it("accepts either signature while the product signs with the old and the new secret", async () => {
    const previous = secret();
    const both = signed({ secrets: [SECRET, previous] });
    expect((await verifyWebhook(body, both, previous)).type).toBe("payment.completed");
    expect((await verifyWebhook(body, both, SECRET)).type).toBe("payment.completed");
  });

  it("accepts several secrets on the receiver's side (during its own switch-over)", async () => {
    const next = secret();
    expect((await verifyWebhook(body, signed({ secrets: [next] }), [SECRET, next])).type).toBe("payment.completed");
  });

  it("reads a signature header sent twice (Node gives an array) as one list", async () => {
    const headers = { ...signed(), "webhook-signature": ["v1,AAAA", signed()["webhook-signature"]] };
    expect((await verifyWebhook(body, headers, SECRET)).type).toBe("payment.completed");
  });

  it("checks the bytes as they arrived: a leading BOM is part of what was signed", async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)]);
    const timestamp = String(Math.floor(Date.now() / 1000));
    // The reference signer takes a string; these bytes are signed by hand, as Standard Webhooks defines it.
    const key = Buffer.from(SECRET.slice("whsec_".length), "base64");
    const mac = createHmac("sha256", key)
      .update(Buffer.concat([Buffer.from(`msg_bom.${timestamp}.`), bytes]))
      .digest("base64");
    const headers = { "webhook-id": "msg_bom", "webhook-timestamp": timestamp, "webhook-signature": `v1,${mac}` };
    expect((await verifyWebhook(bytes, headers, SECRET)).type).toBe("payment.completed");
    expect(await refusal(verifyWebhook(bytes.subarray(3), headers, SECRET))).toBe("signature-mismatch");
  });

  it("refuses a body that is not the raw text or bytes (a parsed object) without throwing anything else", async () => {
    expect(await refusal(verifyWebhook({} as unknown as string, signed(), SECRET))).toBe("body-invalid");
  });

  it("refuses missing headers, a malformed secret and a signed body that is not an event", async () => {
    const { "webhook-signature": _, ...unsigned } = signed();
    expect(await refusal(verifyWebhook(body, unsigned, SECRET))).toBe("headers-missing");
    expect(await refusal(verifyWebhook(body, signed(), "whsec_short"))).toBe("secret-invalid");
    expect(await refusal(verifyWebhook(body, signed(), []))).toBe("secret-invalid");
    expect(await refusal(verifyWebhook("[1]", signed({ payload: "[1]" }), SECRET))).toBe("body-invalid");
    expect(await refusal(verifyWebhook("nope", signed({ payload: "nope" }), SECRET))).toBe("body-invalid");
  });
});

// Compile-time: the event union narrows on `type`, and WebhookEventOf picks one event.
type Completed = WebhookEventOf<"payment.completed">;
const completedSessionId = (event: Completed): string => event.data.sessionId;
const refundId = (event: WebhookEvent): string | null => (event.type === "refund.completed" ? event.data.refundId : null);
void completedSessionId;
void refundId;
