/** Next.js calls register() once per server process before it serves. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  // Before anything serves: per-client limits read the socket's peer from this stamp.
  (await import("./lib/web/http/peer-address")).installPeerStamp();
  await (await import("./lib/ops/startup/start-or-exit")).startOrExit();
}
