/**
 * The side thread's entry (side-thread.ts starts it). Next.js bundles this folder for the worker;
 * vitest and tsx have Node load it from the sources, stripping the types (Node ≥ 22.18), with
 * nothing built for it. Hence, in this folder: relative imports name their `.ts` file, only
 * syntax that type stripping erases is used, and nothing outside it is imported.
 * Packages resolve from here, i.e. from the app's node_modules; if one cannot be loaded, the
 * thread says so and stops, and the app does the work on its main thread instead.
 */

import { parentPort } from "node:worker_threads";
import type { TASKS as Tasks } from "./tasks.ts";

type Request = { id: number; task: keyof typeof Tasks; payload: never };

const port = parentPort;
if (!port) throw new Error("entry.ts runs as a worker thread (lib/base/side-thread/side-thread.ts starts it)");

const loading = import("./tasks.ts").then(
  ({ TASKS }) => {
    port.postMessage({ ready: true });
    return TASKS;
  },
  (error: unknown) => {
    port.postMessage({ ready: false, error: String((error as Error)?.message ?? error).split("\n")[0] });
    return process.exit(1);
  },
);

// Requests that arrive while the packages load wait for them.
port.on("message", ({ id, task, payload }: Request) => {
  const reply = (result: unknown, error?: unknown) =>
    port.postMessage(error === undefined ? { id, result } : { id, error: String((error as Error)?.message ?? error) });
  loading.then((tasks): unknown => tasks[task](payload)).then(reply, (error: unknown) => reply(undefined, error ?? "failed"));
});
