/**
 * The example shop: one product page, orders created on this server through @bsc-pay/sdk, the
 * drop-in "Pay with crypto" button, and the webhook endpoint that marks an order paid.
 *   npm run setup   (once: a merchant on your BSC Pay, written to .env)
 *   npm start       (http://127.0.0.1:4000)
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import { BscPayError, createClient, verifyWebhookDetailed, WebhookVerificationError } from "@bsc-pay/sdk";
import { OrderBook, orderChange } from "./orders.ts";
import { fillPage } from "./page.ts";

const config = {
  bscPayUrl: required("BSC_PAY_URL"),
  apiKey: required("BSC_PAY_API_KEY"),
  webhookSecret: required("BSC_PAY_WEBHOOK_SECRET"),
  tokenId: Number(required("BSC_PAY_TOKEN_ID")),
  port: Number(process.env.SHOP_PORT ?? 4000),
  dataFile: process.env.SHOP_DATA_FILE ?? fileURLToPath(new URL("./data/orders.json", import.meta.url)),
};
const PRODUCT = { name: "Flat white", amount: "3.5", token: process.env.BSC_PAY_TOKEN_SYMBOL ?? "DUSD" };

const bscpay = createClient({ apiKey: config.apiKey, baseUrl: config.bscPayUrl });
const orders = new OrderBook(config.dataFile);
const page = fillPage(readFileSync(new URL("./page.html", import.meta.url), "utf8"), {
  BSC_PAY_URL: config.bscPayUrl,
  PRODUCT: PRODUCT.name,
  PRICE: `${PRODUCT.amount} ${PRODUCT.token}`,
});

/** POST /orders: the order first, then its payment session (the order id is the Idempotency-Key). */
async function createOrder(res: ServerResponse) {
  const order = orders.create(PRODUCT.name, PRODUCT.amount, PRODUCT.token);
  const session = await bscpay.payments.create(
    {
      tokenId: config.tokenId,
      amount: order.amount,
      orderId: order.id,
      description: `1 × ${order.product}`,
      metadata: { orderId: order.id },
    },
    { idempotencyKey: order.id },
  );
  orders.update(order.id, { sessionId: session.sessionId });
  json(res, 201, { orderId: order.id, sessionId: session.sessionId });
}

/** POST /webhooks/bsc-pay: only a verified event changes an order, and each event only once. */
async function receiveWebhook(req: IncomingMessage, res: ServerResponse) {
  const rawBody = await readBody(req);
  let verified: Awaited<ReturnType<typeof verifyWebhookDetailed>>;
  try {
    verified = await verifyWebhookDetailed(rawBody, req.headers, config.webhookSecret);
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      console.warn(`webhook refused: ${error.reason}`);
      return json(res, 400, { error: error.reason });
    }
    throw error;
  }
  const { id, event } = verified;
  if (orders.handled(id)) return json(res, 200, { duplicate: true });
  const order = "orderId" in event.data && typeof event.data.orderId === "string" ? orders.get(event.data.orderId) : undefined;
  const change = order ? orderChange(order, event, id) : null;
  if (order && change) {
    orders.update(order.id, change);
    console.log(`order ${order.id} ${change.status} (${event.type}${change.txHash ? `, ${change.txHash}` : ""})`);
  } else if (order && event.type === "payment.completed") {
    console.warn(`order ${order.id}: a paid session that does not match the order (${event.data.sessionId}); not marked paid`);
  }
  orders.remember(id);
  json(res, 200, { received: true });
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://shop");
  try {
    if (req.method === "GET" && url.pathname === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
    } else if (req.method === "POST" && url.pathname === "/orders") {
      await createOrder(res);
    } else if (req.method === "GET" && url.pathname.startsWith("/orders/")) {
      const order = orders.get(decodeURIComponent(url.pathname.slice("/orders/".length)));
      order ? json(res, 200, order) : json(res, 404, { error: "no such order" });
    } else if (req.method === "POST" && url.pathname === "/webhooks/bsc-pay") {
      await receiveWebhook(req, res).catch((error: unknown) => {
        if (!(error instanceof BodyTooLarge)) throw error;
        json(res, 413, { error: "body too large" });
      });
    } else {
      json(res, 404, { error: "not found" });
    }
  } catch (error) {
    console.error(error instanceof BscPayError ? `BSC Pay: ${error.message}` : error);
    if (!res.headersSent) json(res, 502, { error: "the payment could not be started; try again" });
  }
});
server.listen(config.port, "127.0.0.1", () => console.log(`shop on http://127.0.0.1:${config.port}`));

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1_000_000) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

class BodyTooLarge extends Error {}

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`${name} is not set: run \`npm run setup\` first (it writes .env), or set it yourself.`);
    process.exit(1);
  }
  return value;
}
