import { AppError, commonRefusal } from "@/lib/base/errors";
import type { CheckoutEvent } from "@/lib/web/checkout/checkout-hub";
import { admitStream } from "@/lib/web/checkout/checkout-streams";
import { watchCheckout } from "@/lib/web/checkout/watch-checkout";
import { clientKey } from "@/lib/web/http/client-ip";
import { errorResponse } from "@/lib/web/http/envelope";
import { withErrors } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";

export const dynamic = "force-dynamic";

const TERMINAL = new Set(["completed", "expired", "cancelled"]);
const HEARTBEAT_MS = 15_000;

/**
 * GET /api/checkout/:sessionId/events (public): the session's status as Server-Sent Events —
 * status, amounts and the chain's head while pending; the stream ends at a terminal state. Every
 * open page is served by the process's one change feed (lib/web/checkout/checkout-hub.ts). Open
 * streams are capped per client address and in total (lib/web/checkout/checkout-streams.ts).
 */
export const GET = withErrors(async ({ req, params }) => {
  const sessionId = parseUuid(params.sessionId, "sessionId");
  const release = admitStream(clientKey(req.headers));
  const encoder = new TextEncoder();
  let unsubscribe = () => {};
  let heartbeat: NodeJS.Timeout | undefined;
  // Until the stream starts, keep the latest event: nothing the feed says in between is lost.
  let latest: CheckoutEvent | null = null;
  let first: (event: CheckoutEvent) => void = () => {};
  const firstEvent = new Promise<CheckoutEvent>((resolve) => (first = resolve));
  let send: (event: CheckoutEvent) => void = (event) => {
    latest = event;
    first(event);
  };
  unsubscribe = watchCheckout(sessionId, (event) => send(event));
  const opening = await Promise.race([firstEvent, new Promise<null>((r) => setTimeout(() => r(null), 10_000))]);
  if (!opening || opening.kind === "not-found") {
    unsubscribe();
    release();
    return errorResponse(
      opening
        ? commonRefusal("NOT_FOUND", "not-found", "payment session not found")
        : new AppError("INTERNAL_ERROR", "the status feed is not answering"),
    );
  }

  let counter = 0;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const close = () => {
        unsubscribe();
        release();
        clearInterval(heartbeat);
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      const write = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close(); // the client went away
        }
      };
      send = (event) => {
        if (event.kind === "not-found") return close();
        write(`id: ${++counter}\nevent: status\ndata: ${JSON.stringify(event.data)}\n\n`);
        if (TERMINAL.has(event.data.status)) close();
      };
      write("retry: 3000\n\n");
      heartbeat = setInterval(() => write(": keep-alive\n\n"), HEARTBEAT_MS);
      req.signal.addEventListener("abort", close);
      send(latest ?? opening);
    },
    cancel() {
      unsubscribe();
      release();
      clearInterval(heartbeat);
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
