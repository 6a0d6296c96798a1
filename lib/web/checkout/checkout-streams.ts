/**
 * Open checkout status streams (SSE), capped per client address and in total: each holds a
 * connection and a subscription for up to a session's lifetime, and the endpoint is public.
 * Beyond a cap the answer is 429 RATE_LIMITED and the page polls instead.
 */

import { commonRefusal } from "../../base/errors";

// Generous: payers behind one carrier-grade NAT share an address.
export const MAX_STREAMS_PER_CLIENT = 50;
export const MAX_STREAMS = 2000;
const RETRY_AFTER_SECONDS = 10;

const KEY = Symbol.for("bsc-pay.checkout-streams");
type Streams = { total: number; perClient: Map<string, number> };

function streams(): Streams {
  const holder = globalThis as { [KEY]?: Streams };
  holder[KEY] ??= { total: 0, perClient: new Map() };
  return holder[KEY];
}

/** Takes a place for a stream of `client`; the returned function gives it back (once, however often called). */
export function admitStream(client: string): () => void {
  const open = streams();
  const mine = open.perClient.get(client) ?? 0;
  const refuse = (why: string) =>
    commonRefusal(
      "RATE_LIMITED",
      "rate-limited",
      `${why}; poll GET /api/checkout/:sessionId instead, or retry in ${RETRY_AFTER_SECONDS} s`,
      undefined,
      {
        "retry-after": String(RETRY_AFTER_SECONDS),
      },
    );
  if (mine >= MAX_STREAMS_PER_CLIENT) throw refuse(`too many open status streams from this address (${MAX_STREAMS_PER_CLIENT})`);
  if (open.total >= MAX_STREAMS) throw refuse("this server has too many open status streams");
  open.total++;
  open.perClient.set(client, mine + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    open.total--;
    const left = (open.perClient.get(client) ?? 1) - 1;
    if (left > 0) open.perClient.set(client, left);
    else open.perClient.delete(client);
  };
}

export function openStreams(): { total: number; clients: number } {
  return { total: streams().total, clients: streams().perClient.size };
}
