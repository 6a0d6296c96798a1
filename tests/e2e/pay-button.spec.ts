import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { build } from "esbuild";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { apiMerchant, payDirectly } from "./helpers/merchant";
import { expectAccessible, watchConsole } from "./helpers/pages";
import { ShopApp } from "./helpers/pay-button-shop";

/**
 * The drop-in "Pay with crypto" button, on a real little shop on another loopback
 * origin whitelisted as the merchant's domain: checkout.js's plain `BscPay.button`, and the React
 * SDK's `PayButton` rendered on the shop's server and hydrated from an esbuild bundle. Each: the
 * click creates the payment on the shop's server, the modal shows the checkout, the payer pays,
 * the shop hears `completed` at once and the outcome when the modal closes; closing unpaid is
 * `pending`; a failing createSession shows its error and gives the button back; Tab and Enter
 * work and the focus comes back; axe finds nothing; the console stays clean.
 */
const AMOUNT = "3";
const ERROR_TEXT = "The payment could not be started. Please try again.";

let api: APIRequestContext;
let merchant: Awaited<ReturnType<typeof apiMerchant>>;
let server: Server;
let shopOrigin: string;
let reactBundle: string;
/** What the shop's server answers the next POST /session: a new session (at once or after 2 s), a 500, or a wrong id. */
let next: "session" | "slow" | "fail" | "not-an-id" = "session";
const created: { sessionId: string; depositAddress: `0x${string}` }[] = [];

function plainShop(gateway: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Coffee shop</title><link rel="icon" href="data:,">
<script src="${gateway}/checkout.js"></script></head>
<body><main><h1>Coffee shop (plain script)</h1><p>One flat white, 3 DUSD.</p><div id="pay"></div>
<p>Status: <output data-testid="status"></output></p>
<p>Completed: <output data-testid="completed"></output></p>
<p>Outcome: <output data-testid="outcome"></output></p>
<p>Error: <output data-testid="error-report"></output></p></main>
<script>
  const show = (o) => (o ? (o.status ?? "none") + " " + o.sessionId : "");
  const out = (id) => (o) => { document.querySelector("[data-testid=" + id + "]").textContent = typeof o === "string" ? o : show(o); };
  BscPay.button("#pay", {
    createSession: async () => {
      const res = await fetch("/session", { method: "POST" });
      if (!res.ok) throw new Error("the shop could not create the payment: " + (await res.text()));
      return res.text();
    },
    onStatus: out("status"),
    onCompleted: out("completed"),
    onOutcome: out("outcome"),
    onError: (e) => out("error-report")(e.message),
  });
</script></body></html>`;
}

function reactShop(gateway: string) {
  const html = renderToString(createElement(ShopApp, { baseUrl: gateway }));
  return `<!doctype html><html lang="en" data-gateway="${gateway}"><head><meta charset="utf-8"><title>Coffee shop</title>
<link rel="icon" href="data:,"></head><body><div id="root">${html}</div><script src="/shop.js"></script></body></html>`;
}

test.beforeAll(async ({ playwright }, testInfo) => {
  const gateway = String(testInfo.project.use.baseURL);
  api = await playwright.request.newContext({ baseURL: gateway });
  const bundle = await build({
    entryPoints: ["tests/e2e/helpers/pay-button-shop.client.tsx"],
    bundle: true,
    write: false,
    format: "iife",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  reactBundle = bundle.outputFiles[0]!.text;
  server = createServer((req, res) => {
    const send = (status: number, type: string, body: string) => res.writeHead(status, { "content-type": type }).end(body);
    if (req.method === "POST" && req.url === "/session") {
      // The shop's server creates the payment with its API key, as a real shop would.
      const answer = next;
      next = "session";
      if (answer === "fail") {
        setTimeout(() => send(500, "text/plain", "out of stock"), 1_000);
        return;
      }
      if (answer === "not-an-id") {
        send(201, "text/plain", "ORD-1");
        return;
      }
      const pause = new Promise((resolve) => setTimeout(resolve, answer === "slow" ? 2_000 : 0));
      pause
        .then(() => merchant.createPayment(AMOUNT, { orderId: `ORD-${created.length + 1}` }))
        .then(
          (session) => {
            created.push(session);
            send(201, "text/plain", session.sessionId);
          },
          (e: Error) => send(500, "text/plain", e.message),
        );
    } else if (req.url === "/plain") send(200, "text/html", plainShop(gateway));
    else if (req.url === "/react") send(200, "text/html", reactShop(gateway));
    else if (req.url === "/shop.js") send(200, "text/javascript", reactBundle);
    else send(404, "text/plain", "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  shopOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  merchant = await apiMerchant(api, [shopOrigin]);
});

test.afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await api.dispose();
});

test.beforeEach(() => {
  next = "session";
});

/** The shop's page with its button ready to be clicked (the React one hydrated). */
async function openShop(page: Page, kind: "plain" | "react") {
  await page.goto(`${shopOrigin}/${kind}`);
  if (kind === "react") await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await expect(page.getByRole("button", { name: "Pay with crypto" })).toBeEnabled();
  // Not by its name: the name changes while busy.
  return page.locator("[data-bscpay-button] button");
}

const checkoutFrame = (page: Page) => page.frameLocator('iframe[title="BSC Pay checkout"]');
const shown = (page: Page, id: "status" | "completed" | "outcome" | "error-report") => page.getByTestId(id);
const lastSession = () => created.at(-1)!;

for (const kind of ["plain", "react"] as const) {
  test.describe(`${kind === "plain" ? "checkout.js BscPay.button" : "React PayButton"}`, () => {
    test("a click opens the checkout; paid: completed is heard at once, the outcome when the payer closes the modal", async ({ page }) => {
      test.setTimeout(90_000);
      const logs = watchConsole(page);
      const button = await openShop(page, kind);
      await expectAccessible(page, `the ${kind} shop with its button`);
      await button.click();
      const frame = checkoutFrame(page);
      await expect(frame.getByTestId("amount")).toHaveText("3 DUSD");
      const { sessionId, depositAddress } = lastSession();
      await expect(shown(page, "status")).toHaveText(`pending ${sessionId}`);

      // Forged from the shop's page itself and from a frame of another origin: neither is the checkout.
      await page.evaluate((id) => {
        const forged = [
          { type: "bscpay:status", sessionId: id, status: "completed" },
          { type: "bscpay:close", sessionId: id },
        ];
        for (const message of forged) window.postMessage(message, "*");
        const frame = document.createElement("iframe");
        frame.srcdoc = `<script>for (const m of ${JSON.stringify(forged)}) parent.postMessage(m, "*");</script>`;
        document.body.append(frame);
      }, sessionId);
      await page.waitForTimeout(500);
      await expect(shown(page, "completed")).toHaveText("");
      await expect(shown(page, "status")).toHaveText(`pending ${sessionId}`);
      await expect(page.locator("[data-bscpay-overlay]")).toBeVisible();

      await payDirectly(depositAddress, AMOUNT);
      await expect(frame.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 30_000 });
      await expect(shown(page, "completed")).toHaveText(`completed ${sessionId}`);
      // The receipt stays until the payer closes it: the outcome is not in yet.
      await expect(page.locator("[data-bscpay-overlay]")).toBeVisible();
      await expect(shown(page, "outcome")).toHaveText("");

      await frame.getByRole("button", { name: "Close" }).click();
      await expect(page.locator("[data-bscpay-overlay]")).toHaveCount(0);
      await expect(shown(page, "outcome")).toHaveText(`completed ${sessionId}`);
      expect((await merchant.status(sessionId)).status).toBe("completed");
      logs.assertClean();
    });

    test("keyboard: Tab reaches the button, Enter opens the checkout; closed unpaid it resolves pending and the focus comes back", async ({
      page,
    }) => {
      const logs = watchConsole(page);
      const button = await openShop(page, kind);
      await page.keyboard.press("Tab");
      await expect(button).toBeFocused();
      await page.keyboard.press("Enter");
      const frame = checkoutFrame(page);
      await expect(frame.getByTestId("amount")).toHaveText("3 DUSD");
      const { sessionId } = lastSession();
      await expect(shown(page, "status")).toHaveText(`pending ${sessionId}`);

      await frame.getByRole("button", { name: "Close" }).click();
      await expect(page.locator("[data-bscpay-overlay]")).toHaveCount(0);
      await expect(shown(page, "outcome")).toHaveText(`pending ${sessionId}`);
      await expect(shown(page, "completed")).toHaveText("");
      await expect(button).toBeFocused();
      expect((await merchant.status(sessionId)).status).toBe("pending");
      logs.assertClean();
    });

    test("a createSession that throws: busy meanwhile, then the error shows and the button works again", async ({ page }) => {
      const logs = watchConsole(page);
      logs.ignore(/status of 500/); // the shop's server answers the failed POST /session with a 500
      const button = await openShop(page, kind);
      next = "fail";
      const before = created.length;
      await button.click();
      await expect(button).toHaveAttribute("aria-busy", "true");
      await expect(button).toHaveAttribute("aria-disabled", "true");
      await expect(button).toHaveText("Starting payment…");
      await button.dispatchEvent("click"); // ignored while busy: no second session (click() would wait, aria-disabled)
      await expect(page.getByRole("alert")).toHaveText(ERROR_TEXT);
      await expect(shown(page, "error-report")).toHaveText("the shop could not create the payment: out of stock");
      await expect(button).toHaveText("Pay with crypto");
      await expect(button).not.toHaveAttribute("aria-busy");
      await expect(button).not.toHaveAttribute("aria-disabled");
      await expect(page.locator("[data-bscpay-overlay]")).toHaveCount(0);
      expect(created.length).toBe(before);
      await expectAccessible(page, `the ${kind} shop showing the error`);
      // The default look holds on a dark shop page too (the error line takes the page's colour).
      await page.evaluate(() => Object.assign(document.body.style, { background: "#111318", color: "#e8e8e8" }));
      await expectAccessible(page, `the ${kind} shop showing the error, dark`);

      // The button is back: this time the session is created, and a click beside the modal closes it.
      await button.click();
      await expect(checkoutFrame(page).getByTestId("amount")).toHaveText("3 DUSD");
      await expect(page.locator("[data-bscpay-error]")).toBeHidden();
      const { sessionId } = lastSession();
      await expect(shown(page, "status")).toHaveText(`pending ${sessionId}`);
      await page.mouse.click(4, 4);
      await expect(page.locator("[data-bscpay-overlay]")).toHaveCount(0);
      await expect(shown(page, "outcome")).toHaveText(`pending ${sessionId}`);
      expect(created.length).toBe(before + 1);
      if (kind === "react") await expect(page.locator("script[data-bscpay-checkout]")).toHaveCount(1);
      logs.assertClean();
    });

    test("createSession answering something that is not a session id: the error shows, no modal", async ({ page }) => {
      const logs = watchConsole(page);
      const button = await openShop(page, kind);
      next = "not-an-id";
      await button.click();
      await expect(page.getByRole("alert")).toHaveText(ERROR_TEXT);
      await expect(shown(page, "error-report")).toHaveText("BscPay.open: sessionId must be the payment's id");
      await expect(page.locator("[data-bscpay-overlay]")).toHaveCount(0);
      await expect(button).toHaveText("Pay with crypto");
      await expect(button).not.toHaveAttribute("aria-disabled");
      logs.assertClean();
    });
  });
}

test("React PayButton: a shopper who leaves while the payment starts gets no modal over the next page", async ({ page }) => {
  const logs = watchConsole(page);
  const button = await openShop(page, "react");
  next = "slow";
  const before = created.length;
  await button.click();
  await expect(button).toHaveAttribute("aria-busy", "true");
  await page.getByRole("button", { name: "Back to the cart" }).click();
  await expect(page.getByText("Back to the cart.")).toBeVisible();
  // The session arrives after the button is gone: checkout.js loads and opens, and is closed at once.
  await expect.poll(() => created.length, { timeout: 15_000 }).toBe(before + 1);
  await page.waitForTimeout(1_500);
  await expect(page.locator("[data-bscpay-overlay]")).toHaveCount(0);
  await expect(page.locator('iframe[title="BSC Pay checkout"]')).toHaveCount(0);
  logs.assertClean();
});
