import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";

vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh: () => undefined }) }));
vi.mock("@/lib/web/dashboard/tokens/actions", () => ({ previewTokenAction: vi.fn(), registerTokenAction: vi.fn() }));

const { CustomTokenForm } = await import("@/components/tokens/custom-token-form");

describe("the custom token form (OPEN_TOKEN_REGISTRATION)", () => {
  it("offers the networks by name and sends their ids", () => {
    const html = renderToStaticMarkup(createElement(CustomTokenForm, { networks: ["bsc", "bsc-testnet", "local"] }));
    const options = [...html.matchAll(/<option value="([^"]+)"[^>]*>([^<]+)<\/option>/g)].map((m) => [m[1], m[2]]);
    expect(options).toEqual([
      ["bsc", "BNB Smart Chain"],
      ["bsc-testnet", "BSC Testnet"],
      ["local", "Local test chain"],
    ]);
  });
});
