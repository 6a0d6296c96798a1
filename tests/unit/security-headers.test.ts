import { describe, expect, it } from "vitest";
import { newScriptNonce, securityHeaders, walletRpcOrigins } from "@/lib/web/http/security-headers";

const page = { nonce: "bm9uY2Utb2YtdGhpcy1yZXF1ZXN0", https: false, dev: false, connectOrigins: [], frameAncestors: [] };
const directives = (csp: string) => Object.fromEntries(csp.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1).join(" ")]));

describe("security headers of a page", () => {
  it("allow this site's own scripts and connections only, no framing, nosniff and a referrer policy", () => {
    const headers = securityHeaders(page);
    const csp = directives(headers["content-security-policy"]!);
    expect(csp).toMatchObject({
      "default-src": "'self'",
      // No 'unsafe-inline' for scripts: only this request's nonce, and what its scripts load.
      "script-src": "'self' 'nonce-bm9uY2Utb2YtdGhpcy1yZXF1ZXN0' 'strict-dynamic'",
      "style-src": "'self' 'unsafe-inline'",
      "connect-src": "'self'",
      "object-src": "'none'",
      "frame-ancestors": "'none'",
      "base-uri": "'self'",
      "form-action": "'self'",
    });
    expect(headers).toMatchObject({
      "x-content-type-options": "nosniff",
      "referrer-policy": "strict-origin-when-cross-origin",
      "x-frame-options": "DENY",
    });
    expect(headers["strict-transport-security"]).toBeUndefined();
    expect(csp["upgrade-insecure-requests"]).toBeUndefined();
  });

  it("let the checkout's embed be framed by the merchant's origins only, without X-Frame-Options", () => {
    const headers = securityHeaders({ ...page, frameAncestors: ["https://shop.example.com", "https://b.example"] });
    expect(directives(headers["content-security-policy"]!)["frame-ancestors"]).toBe("https://shop.example.com https://b.example");
    expect(headers["x-frame-options"]).toBeUndefined();
  });

  it("pin https with HSTS only when the site is served over https", () => {
    const headers = securityHeaders({ ...page, https: true });
    expect(headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(headers["content-security-policy"]).toContain("upgrade-insecure-requests");
  });

  it("allow the wallet's RPCs, and eval and websockets only in development", () => {
    const origins = walletRpcOrigins(
      [
        { name: "bsc", chainId: 56 },
        { name: "local", chainId: 31337 },
      ],
      "http://127.0.0.1:8545/",
    );
    expect(origins).toEqual([expect.stringMatching(/^https:\/\//), "http://127.0.0.1:8545"]);
    const csp = directives(securityHeaders({ ...page, connectOrigins: origins })["content-security-policy"]!);
    expect(csp["connect-src"]).toBe(`'self' ${origins.join(" ")}`);
    const dev = directives(securityHeaders({ ...page, dev: true })["content-security-policy"]!);
    expect(dev["script-src"]).toBe("'self' 'nonce-bm9uY2Utb2YtdGhpcy1yZXF1ZXN0' 'strict-dynamic' 'unsafe-eval'");
    expect(dev["connect-src"]).toBe("'self' ws: wss:");
  });
});

describe("script nonces", () => {
  it("are 128 random bits in base64, fresh every time, in the characters Next.js reads from 'nonce-…'", () => {
    const nonces = new Set(Array.from({ length: 100 }, () => newScriptNonce()));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    }
  });
});
