import { describe, expect, it } from "vitest";
import { clientAddress, clientKey, limitKey, normalizeAddress, PEER_HEADER, sealedPeer } from "@/lib/web/http/client-ip";

const headers = (peer: string | null, forwarded?: string) =>
  new Headers({ ...(peer ? { [PEER_HEADER]: sealedPeer(peer) } : {}), ...(forwarded ? { "x-forwarded-for": forwarded } : {}) });

describe("client identity for limits", () => {
  it("is the socket's peer by default: X-Forwarded-For and a forged stamp are ignored", () => {
    expect(clientAddress(headers("198.51.100.4", "1.2.3.4"), 0)).toBe("198.51.100.4");
    expect(clientAddress(new Headers({ [PEER_HEADER]: "forged 1.2.3.4", "x-forwarded-for": "5.6.7.8" }), 0)).toBe("unknown");
    expect(clientAddress(new Headers({ [PEER_HEADER]: "1.2.3.4" }), 0)).toBe("unknown");
  });

  it("behind n proxies is the n-th entry from the right; fewer entries → the leftmost; no header → the peer", () => {
    expect(clientAddress(headers("10.0.0.1", "6.6.6.6, 203.0.113.5"), 1)).toBe("203.0.113.5");
    expect(clientAddress(headers("10.0.0.1", "6.6.6.6, 203.0.113.5, 10.0.0.2"), 2)).toBe("203.0.113.5");
    expect(clientAddress(headers("10.0.0.1", "203.0.113.5"), 2)).toBe("203.0.113.5");
    expect(clientAddress(headers("10.0.0.1"), 1)).toBe("10.0.0.1");
  });

  it("normalises the forms one address takes", () => {
    expect(normalizeAddress("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(normalizeAddress("[2001:DB8::1]:443")).toBe("2001:db8::1");
    expect(normalizeAddress("203.0.113.9:5123")).toBe("203.0.113.9");
    expect(normalizeAddress("fe80::1%eth0")).toBe("fe80::1");
  });

  it("keys IPv6 clients by their /64 and IPv4 clients by their address", () => {
    expect(limitKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(limitKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(limitKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(limitKey("::1")).toBe("0:0:0:0::/64");
    expect(limitKey("203.0.113.9")).toBe("203.0.113.9");
    expect(limitKey("not:an::address::")).toBe("not:an::address::");
    expect(clientKey(headers("2001:db8:1:2::7"), 0)).toBe(clientKey(headers("2001:db8:1:2:ffff::9"), 0));
  });
});
