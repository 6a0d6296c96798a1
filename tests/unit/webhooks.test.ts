import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { paymentEvents } from "@/lib/domain/payments/session-state";
import { embeddedIpv4, isNonPublicAddress } from "@/lib/domain/webhooks/address-guard";
import { signedHeaders } from "@/lib/domain/webhooks/dispatch";
import { newWebhookSecret, SECRET_OVERLAP_MS } from "@/lib/domain/webhooks/endpoints";
import { hostsFileAddresses, postWebhook } from "@/lib/domain/webhooks/post-webhook";
import { MAX_ATTEMPTS, retryDelayMs } from "@/lib/domain/webhooks/retry-schedule";
import { webhookUrlProblem } from "@/lib/domain/webhooks/webhook-url";
import { withdrawalEvent } from "@/lib/domain/withdrawals/withdrawal-state";

describe("webhook targets: what the gateway refuses to call", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "100.64.0.1",
    "100.100.100.200",
    "169.254.169.254",
    "224.0.0.1",
    "239.255.255.250",
    "255.255.255.255",
    "::",
    "::1",
    "fe80::1",
    "fc00::1",
    "fd00:ec2::254",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "::127.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "2002:7f00:1::",
    "2002:c0a8:101::1",
    "not-an-ip",
  ])("refuses %s", (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "93.184.216.34",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("allows the public address %s", (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });

  it("reads the IPv4 address inside mapped, compatible, NAT64 and 6to4 addresses", () => {
    expect(embeddedIpv4("::ffff:7f00:1")).toBe("127.0.0.1");
    expect(embeddedIpv4("::ffff:10.0.0.1")).toBe("10.0.0.1");
    expect(embeddedIpv4("64:ff9b::c0a8:0101")).toBe("192.168.1.1");
    expect(embeddedIpv4("2002:0a00:0001::")).toBe("10.0.0.1");
    expect(embeddedIpv4("2606:4700::1111")).toBeNull();
  });

  it("refuses at save time what is refused anyway: http, and private IP literals in any spelling", () => {
    for (const url of [
      "http://example.com/hook",
      "https://127.0.0.1/hook",
      "https://2130706433/hook", // 127.0.0.1 as one number
      "https://0x7f.1/hook",
      "https://[::1]:8443/hook",
      "https://[::ffff:169.254.169.254]/latest/meta-data",
      "https://169.254.169.254/latest/meta-data",
      "https://10.0.0.5/hook",
      "ftp://example.com/hook",
    ]) {
      expect(webhookUrlProblem(url, false), url).toMatch(/webhookUrl/);
    }
    expect(webhookUrlProblem("https://shop.example.com/webhooks/bsc-pay", false)).toBeNull();
    expect(webhookUrlProblem("https://8.8.8.8/hook", false)).toBeNull();
    // A development install (only the local chain) talks to a shop on the same machine.
    expect(webhookUrlProblem("http://127.0.0.1:4000/hook", true)).toBeNull();
    expect(webhookUrlProblem("ftp://127.0.0.1/hook", true)).toMatch(/http/);
  });
});

describe("public-only delivery: names", () => {
  it("refuses localhost names without looking them up, and says when a name does not resolve", async () => {
    for (const url of ["https://localhost:9/hook", "https://LOCALHOST./hook", "https://api.localhost/hook"]) {
      const result = await postWebhook(url, "{}", {}, { allowPrivate: false, timeoutMs: 5_000 });
      expect(result, url).toMatchObject({ ok: false, statusCode: null });
      expect(result.error).toMatch(/resolves to 127\.0\.0\.1, which is not a public address/);
    }
    const missing = await postWebhook("https://no-such-host.invalid/hook", "{}", {}, { allowPrivate: false, timeoutMs: 5_000 });
    expect(missing).toEqual({ ok: false, statusCode: null, error: "the host name does not resolve" });
  });

  it("reads names pinned in the hosts file, as the system resolver would", () => {
    const path = join(mkdtempSync(join(tmpdir(), "hosts-")), "hosts");
    writeFileSync(
      path,
      "# comment\n127.0.0.1 localhost shop-hooks.test\n::1 ip6-localhost shop-hooks.test # both\n10.0.0.8\tinternal.test\n",
    );
    expect(hostsFileAddresses("shop-hooks.test", path)).toEqual([
      { address: "127.0.0.1", family: 4 },
      { address: "::1", family: 6 },
    ]);
    expect(hostsFileAddresses("internal.test", path)).toEqual([{ address: "10.0.0.8", family: 4 }]);
    expect(hostsFileAddresses("elsewhere.test", path)).toEqual([]);
    expect(hostsFileAddresses("x.test", join(path, "missing"))).toEqual([]);
  });
});

describe("retry schedule", () => {
  it("tries at once, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then gives up", () => {
    const delays = Array.from({ length: MAX_ATTEMPTS }, (_, i) => retryDelayMs(i + 1));
    expect(delays).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, null]);
    const hours = delays.reduce<number>((sum, d) => sum + (d ?? 0), 0) / 3_600_000;
    expect(hours).toBeGreaterThan(27);
    expect(hours).toBeLessThan(28);
    expect(retryDelayMs(0)).toBeNull();
  });
});

describe("events from transitions", () => {
  const pending = (received: bigint) => ({ status: "pending" as const, receivedAmount: received });

  it("names each change once, in order", () => {
    expect(paymentEvents(pending(0n), pending(4n), { late: 0, counted: 1 })).toEqual(["payment.partial"]);
    expect(paymentEvents(pending(4n), { status: "completed", receivedAmount: 10n }, { late: 0, counted: 1 })).toEqual([
      "payment.completed",
    ]);
    expect(paymentEvents(pending(0n), { status: "expired", receivedAmount: 0n })).toEqual(["payment.expired"]);
    expect(paymentEvents(pending(0n), { status: "cancelled", receivedAmount: 0n })).toEqual(["payment.cancelled"]);
    // Seen together after an outage: some paid in time, then the deadline passed, then more came.
    expect(paymentEvents(pending(0n), { status: "expired", receivedAmount: 3n }, { late: 1, counted: 1 })).toEqual([
      "payment.partial",
      "payment.expired",
      "payment.late",
    ]);
    // A transfer mined in time completes an expired session: completed, not partial.
    expect(
      paymentEvents({ status: "expired", receivedAmount: 0n }, { status: "completed", receivedAmount: 10n }, { late: 0, counted: 1 }),
    ).toEqual(["payment.completed"]);
  });

  it("calls money after a terminal state late, and says nothing when nothing changed", () => {
    expect(
      paymentEvents({ status: "expired", receivedAmount: 0n }, { status: "expired", receivedAmount: 0n }, { late: 1, counted: 0 }),
    ).toEqual(["payment.late"]);
    expect(
      paymentEvents({ status: "completed", receivedAmount: 10n }, { status: "completed", receivedAmount: 12n }, { late: 0, counted: 1 }),
    ).toEqual(["payment.late"]);
    expect(paymentEvents(pending(4n), pending(4n))).toEqual([]);
    expect(paymentEvents({ status: "completed", receivedAmount: 10n }, { status: "completed", receivedAmount: 10n })).toEqual([]);
  });

  it("names withdrawal events only for final settlements", () => {
    expect(withdrawalEvent({ status: "completed" })).toBe("withdrawal.completed");
    expect(withdrawalEvent({ status: "failed", reason: "reverted" })).toBe("withdrawal.failed");
    expect(withdrawalEvent({ status: "submitted" })).toBeNull();
  });
});

describe("signatures", () => {
  const delivery = { eventId: "msg_test", payload: JSON.stringify({ type: "ping", timestamp: "2026-11-22T00:00:00.000Z", data: {} }) };

  it("signs with the Standard Webhooks scheme; both secrets sign during a rotation's overlap, only the new one after", () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const now = new Date();
    const overlap = { secret: current, previousSecret: previous, previousSecretExpiresAt: new Date(now.getTime() + SECRET_OVERLAP_MS) };
    const headers = signedHeaders(overlap, delivery, now);
    expect(headers["webhook-id"]).toBe("msg_test");
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(new Webhook(current).verify(delivery.payload, headers)).toMatchObject({ type: "ping" });
    expect(new Webhook(previous).verify(delivery.payload, headers)).toMatchObject({ type: "ping" });
    expect(() => new Webhook(current).verify(delivery.payload.replace("ping", "pong"), headers)).toThrow();

    const after = signedHeaders({ ...overlap, previousSecretExpiresAt: new Date(now.getTime() - 1) }, delivery, now);
    expect(after["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(() => new Webhook(previous).verify(delivery.payload, after)).toThrow();
  });
});
