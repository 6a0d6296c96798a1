import { AppError } from "../../base/errors";
import type { Db } from "../../db";
import {
  describeSweeper,
  retryRefusedBatches,
  rotateSweeperOperator,
  setSweeperPaused,
  sweeperStatus,
} from "../../engine/forwarding/batched/sweeper-admin";
import { flag } from "./tokens";

export const SWEEPER_USAGE = `  sweeper status [--network <n>]          the BatchSweeper on each network: owner, operator, paused
  sweeper pause|resume [--network <n>]    stop (or restart) batched sweeps; deposits are swept the classic way meanwhile
  sweeper rotate-operator --yes           after a gas-tank key leaked: hand the operator role to a fresh gas tank
  sweeper retry-batches [--network <n>]   batch again on a network that went classic after batches the node refused`;

/** npm run admin -- sweeper …: returns the lines to print. */
export async function sweeperCommand(db: Db, args: string[]): Promise<string[]> {
  const [action, ...rest] = args;
  const network = flag(rest, "--network");
  switch (action) {
    case "status":
      return (await sweeperStatus(db, network)).flatMap(describeSweeper);
    case "pause":
    case "resume":
      return setSweeperPaused(db, action === "pause", network);
    case "rotate-operator":
      if (!rest.includes("--yes")) {
        throw new AppError(
          "VALIDATION_ERROR",
          "rotate-operator moves the service to a new gas tank key on every network (fund it afterwards); run it again with --yes",
        );
      }
      return rotateSweeperOperator(db);
    case "retry-batches":
      return retryRefusedBatches(db, network);
    default:
      throw new AppError("VALIDATION_ERROR", `usage:\n${SWEEPER_USAGE}`);
  }
}
