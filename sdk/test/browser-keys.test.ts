/**
 * A secret key never runs in a page: createClient refuses one where `window` and
 * `document` both exist, naming the publishable key to use instead; publishable keys work there,
 * and servers, workers and Deno-like runtimes (a `window` without a `document`) are not pages.
 * The browser is faked with plain globals (no jsdom): that is all createClient looks at.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient } from "../src/client.js";

const baseUrl = "https://pay.example.com";
const SECRET = "bscp_live_q3Xk7Lm2Vr9Tz4Wp1Yc8Nb6Hd5Jf0Gs3";
const PUBLISHABLE = "bscp_pk_live_q3Xk7Lm2Vr9Tz4Wp1Yc8Nb6Hd5Jf0Gs3";

function asBrowser(parts: { window?: boolean; document?: boolean } = { window: true, document: true }) {
  if (parts.window) vi.stubGlobal("window", { location: { href: "https://shop.example.com/" } });
  if (parts.document) vi.stubGlobal("document", { createElement: () => ({}) });
}

afterEach(() => vi.unstubAllGlobals());

describe("createClient in a browser", () => {
  it("refuses a secret key, naming publishable keys", () => {
    asBrowser();
    expect(() => createClient({ apiKey: SECRET, baseUrl })).toThrow(TypeError);
    expect(() => createClient({ apiKey: SECRET, baseUrl })).toThrow(/publishable key \(bscp_pk_live_/);
    // Any secret kind, test keys to come included.
    expect(() => createClient({ apiKey: "bscp_sk_test_abc", baseUrl })).toThrow(/must never run in a browser/);
  });

  it("takes a publishable key, and makes calls with it", async () => {
    asBrowser();
    const fetch = vi.fn(async () => new Response(JSON.stringify({ success: true, data: { status: "pending" } }), { status: 200 }));
    const client = createClient({ apiKey: PUBLISHABLE, baseUrl, fetch });
    await expect(client.payments.status("5f0c1d9e-4a57-4d4b-9d53-0b7e2a6c1f00")).resolves.toEqual({ status: "pending" });
    expect(fetch).toHaveBeenCalledOnce();
  });

  it("takes a secret key when told it never reaches a public page (dangerouslyAllowBrowser)", () => {
    asBrowser();
    expect(() => createClient({ apiKey: SECRET, baseUrl, dangerouslyAllowBrowser: true })).not.toThrow();
    expect(() => createClient({ apiKey: SECRET, baseUrl, dangerouslyAllowBrowser: "yes" as unknown as boolean })).toThrow(TypeError);
  });
});

describe("createClient outside a page", () => {
  it("takes a secret key on a server (no window, no document)", () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe("undefined");
    expect(() => createClient({ apiKey: SECRET, baseUrl })).not.toThrow();
  });

  it("takes a secret key where a window exists without a document (Deno before 2.0) or a document without a window", () => {
    asBrowser({ window: true });
    expect(() => createClient({ apiKey: SECRET, baseUrl })).not.toThrow();
    vi.unstubAllGlobals();
    asBrowser({ document: true });
    expect(() => createClient({ apiKey: SECRET, baseUrl })).not.toThrow();
  });
});
