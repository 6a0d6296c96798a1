/**
 * The engine's ports, wired to the records that answer them: the one place that says which
 * implementation the chain engine gets (lib/engine/chain/ports.ts). Every process that runs the
 * engine calls wireEngine() before it does — the job steps (lib/ops/jobs/steps.ts), the server's
 * start-up, the admin CLI, the tests' setup — so tests and production share this wiring. The
 * scanner's ports travel with each call instead (`scanPorts`, as its TransferRecorder always has).
 */

import { depositBook } from "../../engine/forwarding/deposit-book";
import { setDustSweepGate } from "../../engine/forwarding/dust-gate";
import { gasPayers } from "../../engine/ledger/charges";
import { dustSweepBudgets } from "../gas/dust-budget";
import { depositBookOfPayments } from "./deposit-book";
import { gasPayersOfRecords } from "./gas-payers";
import { nativeWatch } from "./native-watch";
import { recordTransfers } from "./record-transfers";
import { scanWatchOfCatalogue } from "./scan-watch";

/** The scanner's ports, passed with each scan: its recorder and what it watches. */
export const scanPorts = { record: recordTransfers, watch: scanWatchOfCatalogue };
/** The BNB balance poller's: its recorder and its watch list. */
export const nativePollPorts = { record: recordTransfers, port: nativeWatch };

/** Registers the engine's ports (idempotent: the same implementations every time). */
export function wireEngine(): void {
  // The engine asks the plan rules through its port whether a payer-triggered dust sweep may be paid now.
  setDustSweepGate(dustSweepBudgets);
  depositBook.set(depositBookOfPayments);
  gasPayers.set(gasPayersOfRecords);
}
