import { AppError } from "../../base/errors";
import type { Db } from "../../db";
import { isNetworkName } from "../../engine/chain/networks";
import { resettleNonce } from "../../engine/ledger/recheck";
import { formatReconciliation, reconcile, saveReconciliation } from "../custody/reconcile";
import { operatorStatus } from "../health/status";

export const OPERATIONS_USAGE = `  reconcile [--network n]     ledger against chain per token; lists every difference; exit 1 if any
  status                      every part in one screen: networks, lag, gas tank, queues, held,
                              quarantine, webhooks, last reconciliation
  ledger resettle <network> <wallet> <nonce>
                              read that nonce's receipts now and settle what they prove (a nonce
                              judged taken by a transaction the service did not sign, or still open)`;

/** `reconcile [--network n]`: prints the report, keeps it for /api/health; resolves to the exit code. */
export async function reconcileCommand(db: Db, args: string[], print: (line: string) => void): Promise<number> {
  let network: string | undefined;
  if (args[0] === "--network" && args[1] && args.length === 2) network = args[1];
  else if (args.length > 0) throw new AppError("VALIDATION_ERROR", `usage:\n${OPERATIONS_USAGE}`);
  if (network !== undefined && !isNetworkName(network)) throw new AppError("VALIDATION_ERROR", `network ${network} is not configured`);
  const result = await reconcile(db, { network });
  await saveReconciliation(db, result);
  for (const line of formatReconciliation(result)) print(line);
  return result.differences.length > 0 ? 1 : 0;
}

/** `ledger resettle <network> <wallet> <nonce>`: prints what was settled; refuses (throws) when nothing can be. */
export async function ledgerCommand(db: Db, args: string[]): Promise<string[]> {
  const [sub, network, wallet, nonce, ...extra] = args;
  if (sub !== "resettle" || !network || !wallet || !nonce || extra.length > 0)
    throw new AppError("VALIDATION_ERROR", `usage:\n${OPERATIONS_USAGE}`);
  return resettleNonce(db, { network, wallet, nonce });
}

export async function statusCommand(db: Db, print: (line: string) => void): Promise<number> {
  const { lines, healthy } = await operatorStatus(db);
  for (const line of lines) print(line);
  return healthy ? 0 : 1;
}
