/**
 * How many dashboard exports run at once in this process: one per merchant and four in all. An
 * export of a big history streams for seconds and the payments export holds a database connection
 * (a declared cursor) for all of it; a merchant clicking Export ten times, or many at once, must
 * not take the pool the engine and every page share. A refused export answers 429 with what to do.
 */

import { csvDownload } from "./csv-download";

export const EXPORTS_PER_USER = 1;
export const EXPORTS_PER_INSTANCE = 4;

const SLOTS_KEY = Symbol.for("bsc-pay.export-slots");
type Slots = { total: number; byUser: Map<number, number> };
type Holder = { [SLOTS_KEY]?: Slots };

function slots(): Slots {
  const holder = globalThis as Holder;
  holder[SLOTS_KEY] ??= { total: 0, byUser: new Map() };
  return holder[SLOTS_KEY];
}

/** Exports running now (tests and the metrics). */
export function runningExports(userId?: number): number {
  const all = slots();
  return userId === undefined ? all.total : (all.byUser.get(userId) ?? 0);
}

type Refusal = "user" | "instance";

/** A slot for `userId`'s export, and the function that gives it back exactly once; or why there is none. */
export function takeExportSlot(userId: number): { release: () => void } | { refused: Refusal } {
  const all = slots();
  const mine = all.byUser.get(userId) ?? 0;
  if (mine >= EXPORTS_PER_USER) return { refused: "user" };
  if (all.total >= EXPORTS_PER_INSTANCE) return { refused: "instance" };
  all.total++;
  all.byUser.set(userId, mine + 1);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      all.total--;
      const left = (all.byUser.get(userId) ?? 1) - 1;
      if (left > 0) all.byUser.set(userId, left);
      else all.byUser.delete(userId);
    },
  };
}

/** `stream`, giving the slot back when it ends, fails or its reader goes away. */
export function releasedAtEnd(stream: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      release();
      await reader.cancel(reason);
    },
  });
}

/** A dashboard export's response: the CSV download when a slot is free, else 429 saying why. */
export async function exportResponse(userId: number, prefix: string, open: () => Promise<ReadableStream<Uint8Array>>): Promise<Response> {
  const slot = takeExportSlot(userId);
  if ("refused" in slot) {
    const message =
      slot.refused === "user"
        ? "another export of yours is still running: wait for it to finish, then export again"
        : "the server is busy with other exports: try again in a few seconds";
    return new Response(message, { status: 429, headers: { "retry-after": "5", "content-type": "text/plain; charset=utf-8" } });
  }
  try {
    return csvDownload(releasedAtEnd(await open(), slot.release), prefix);
  } catch (error) {
    slot.release();
    throw error;
  }
}
