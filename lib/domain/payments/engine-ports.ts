/**
 * The engine's ports, wired to the records that answer them: the one place that says which
 * implementation the chain engine gets (lib/engine/chain/ports.ts). Every process that runs the
 * engine calls wireEngine() before it does — the job steps (lib/ops/jobs/steps.ts), the server's
 * start-up, the admin CLI, the tests' setup — so tests and production share this wiring. The
 * scanner's ports travel with each call instead (`scanPorts`, as its TransferRecorder always has).
 */
import { dustSweepBudgets } from "../gas/dust-budget";
import { setDustSweepGate } from "../../engine/forwarding/dust-gate";
import { depositBook } from "../../engine/forwarding/deposit-book";
import { gasPayers } from "../../engine/ledger/charges";
import { depositBookOfPayments } from "./deposit-book";
import { gasPayersOfRecords } from "./gas-payers";

/** Registers the engine's ports (idempotent: the same implementations every time). */
export function wireEngine(): void {
  // The engine asks the plan rules through its port whether a payer-triggered dust sweep may be paid now.
  setDustSweepGate(dustSweepBudgets);
  depositBook.set(depositBookOfPayments);
  gasPayers.set(gasPayersOfRecords);
}
