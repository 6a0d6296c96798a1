import { AppError } from "../../base/errors";
import type { Db } from "../../db";
import type { Forward } from "../../db/schema";
import { heldForwards, openForwards, retryHeldForwards } from "../../engine/forwarding/forward-admin";

export const FORWARDS_USAGE = `  forwards held [network]     forwards that need the operator, with the reason
  forwards retry <id|all>     release held forwards: planned again from a fresh balance and estimate
  stuck-forwards [minutes]    forwards not completed after [minutes] (default 10), with their last error`;

export async function forwardsCommand(db: Db, args: string[]): Promise<string[]> {
  const [action, which] = args;
  if (action === "held") {
    const held = await heldForwards(db, which);
    return held.length === 0
      ? ["no held forwards"]
      : held.map(
          (f) => `${describe(f)}\n    held since ${f.heldAt?.toISOString() ?? "?"}: ${f.heldReason ?? f.lastError ?? "no reason recorded"}`,
        );
  }
  if (action === "retry") {
    if (!which || (which !== "all" && !/^[1-9][0-9]{0,15}$/.test(which)))
      throw new AppError("VALIDATION_ERROR", `usage:\n${FORWARDS_USAGE}`);
    const released = await retryHeldForwards(db, which === "all" ? "all" : Number(which));
    if (released.length === 0) throw new AppError("NOT_FOUND", which === "all" ? "no held forwards" : `forward ${which} is not held`);
    return released.map((f) => `released: ${describe(f)}`);
  }
  throw new AppError("VALIDATION_ERROR", `usage:\n${FORWARDS_USAGE}`);
}

export async function stuckForwardsCommand(db: Db, args: string[]): Promise<string[]> {
  const minutes = Number(args[0] ?? 10);
  if (!Number.isFinite(minutes) || minutes < 0) throw new AppError("VALIDATION_ERROR", `usage:\n${FORWARDS_USAGE}`);
  const stuck = await openForwards(db, minutes * 60);
  if (stuck.length === 0) return [`no forward has been open for more than ${minutes} minutes`];
  return stuck.map((f) => `${describe(f)} (since ${f.createdAt.toISOString()})${f.lastError ? `: ${f.lastError}` : ""}`);
}

function describe(f: Forward): string {
  return `forward ${f.id} ${f.network} ${f.status} ${f.fromAddress} → ${f.toAddress} token ${f.tokenContract} amount ${f.amount} (attempts ${f.attempts})`;
}
