/**
 * One worker thread per process for the CPU-heavy parts of payment/create (deriving deposit
 * addresses: an elliptic-curve multiplication each; drawing the QR code), so the event loop that
 * serves requests does not do them. Node runs route handlers on one thread; on a machine with
 * more than one core this work then runs beside it.
 *
 * Every caller keeps a main-thread way of doing the same work: `run` rejects when the side thread
 * is unavailable (its packages cannot be loaded, it crashed), and from then on this process does
 * the work on its main thread.
 */

import { resolve } from "node:path";
import { Worker } from "node:worker_threads";
import { log } from "../log";
import type { SideThreadTasks } from "./worker/tasks.ts";

/**
 * The thread's entry, from the app's root. `next build` and `next dev` (Turbopack) see this
 * `new Worker` and start a bundle of it instead; vitest and tsx start the sources, which Node
 * loads as they are (worker/entry.ts says how).
 */
export const WORKER_ENTRY = "lib/base/side-thread/worker/entry.ts";

type Pending = { resolve: (result: unknown) => void; reject: (error: Error) => void };

export class SideThread {
  private worker: Worker | null = null;
  private failed = false;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  /** Whether work can be sent (false once the thread failed). */
  get available(): boolean {
    return !this.failed;
  }

  run<K extends keyof SideThreadTasks>(task: K, payload: SideThreadTasks[K]["payload"]): Promise<SideThreadTasks[K]["result"]> {
    const worker = this.start();
    if (!worker) return Promise.reject(new Error("the side thread is not available"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      worker.postMessage({ id, task, payload });
    });
  }

  /** Stops the thread for good (tests; a result that cannot be trusted). */
  retire(reason: string): void {
    if (this.failed) return;
    this.failed = true;
    const worker = this.worker;
    this.worker = null;
    for (const waiting of this.pending.values()) waiting.reject(new Error(reason));
    this.pending.clear();
    void worker?.terminate().catch(() => {});
  }

  private start(): Worker | null {
    if (this.worker || this.failed) return this.worker;
    if (!process.features.typescript) {
      log.warn("this Node cannot load TypeScript (Node 22.18 and later can); deposit addresses and QR codes are made on the main thread");
      this.failed = true;
      return null;
    }
    try {
      const worker = new Worker(resolve(process.cwd(), WORKER_ENTRY));
      worker.unref(); // never keeps the process alive
      worker.on("message", (message: { ready?: boolean; error?: string; id?: number; result?: unknown }) => {
        if (message.ready === false) {
          log.warn(
            { reason: message.error },
            "side thread cannot load its packages; deposit addresses and QR codes are made on the main thread",
          );
          return this.retire(`side thread unavailable: ${message.error}`);
        }
        if (message.id === undefined) return;
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error !== undefined) waiting?.reject(new Error(message.error));
        else waiting?.resolve(message.result);
      });
      worker.on("error", (error) => {
        log.error({ err: error }, "side thread failed; its work moves to the main thread");
        this.retire("side thread failed");
      });
      worker.on("exit", () => this.retire("side thread exited"));
      this.worker = worker;
    } catch (error) {
      log.warn({ err: error }, "side thread could not start; deposit addresses and QR codes are made on the main thread");
      this.failed = true;
    }
    return this.worker;
  }
}

const KEY = Symbol.for("bsc-pay.side-thread");
type Holder = { [KEY]?: SideThread };

/** The process's side thread (started on first use). */
export function sideThread(): SideThread {
  const holder = globalThis as Holder;
  holder[KEY] ??= new SideThread();
  return holder[KEY];
}
