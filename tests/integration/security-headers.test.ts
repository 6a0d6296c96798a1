import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { proxy } from "@/proxy";
import { setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call, SITE } from "../helpers/http";

/** proxy.ts puts the security headers on every page; the checkout's embed is framable by its merchant's origins only. */
useTestDatabase();
const chain = useTestChain({ chainId: 56 });

const visit = (path: string) => proxy(new NextRequest(`${SITE}${path}`));
const frameAncestors = (res: Response) => /frame-ancestors ([^;]+)/.exec(res.headers.get("content-security-policy") ?? "")?.[1];

describe("security headers on pages", () => {
  it("frames the embed only in the session's merchant's whitelisted origins, and nothing else anywhere", async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", NEXTAUTH_URL: SITE });
    const token = await deployTestToken(chain().url, { symbol: "CSP" });
    const shop = await setUpMerchant({ contractAddress: token, network: "bsc", domain: "https://shop.example.com" });
    await setUpMerchant({ contractAddress: token, network: "bsc", domain: "https://other-merchant.example" });
    const created = await call(create, {
      method: "POST",
      headers: { "x-api-key": shop.apiKey },
      body: { tokenId: shop.tokenId, amount: "1" },
    });
    const id = created.body.data.sessionId as string;

    const embed = await visit(`/pay/${id}?embed=1`);
    expect(frameAncestors(embed)).toBe("https://shop.example.com");
    expect(embed.headers.get("x-frame-options")).toBeNull();
    for (const path of [
      `/pay/${id}`,
      `/pay/${id}?embed=0`,
      "/pay/not-a-uuid?embed=1",
      `/pay/${crypto.randomUUID()}?embed=1`,
      "/login",
      "/",
      "/docs",
    ]) {
      const res = await visit(path);
      expect(frameAncestors(res), path).toBe("'none'");
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("strict-transport-security"), path).toBeNull(); // http site
    }
  });

  it("allows scripts only with a nonce of its own per request, handed to Next.js and the layout on the request", async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", NEXTAUTH_URL: SITE });
    const seen = new Set<string>();
    for (const path of ["/", "/login", "/docs", "/pay/x", "/"]) {
      const res = await visit(path);
      const csp = res.headers.get("content-security-policy") ?? "";
      const scriptSrc = /script-src ([^;]+)/.exec(csp)?.[1] ?? "";
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(scriptSrc)?.[1];
      expect(nonce, path).toBeDefined();
      expect(scriptSrc).toContain("'strict-dynamic'");
      seen.add(nonce!);
      // NextResponse.next({ request: { headers } }) passes these on to the page's render.
      expect(res.headers.get("x-middleware-request-x-nonce")).toBe(nonce);
      expect(res.headers.get("x-middleware-request-content-security-policy")).toBe(csp);
    }
    expect(seen.size).toBe(5);
  });

  it("keeps the signed-out redirect of the dashboard, with the headers, and adds HSTS on an https site", async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", NEXTAUTH_URL: "https://pay.example.com" });
    const res = await visit("/dashboard/tokens?x=1");
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe(`${SITE}/login?callbackUrl=%2Fdashboard%2Ftokens%3Fx%3D1`);
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(frameAncestors(res)).toBe("'none'");
  });
});
