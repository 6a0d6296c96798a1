/** Why the dashboard's "Simulate payment" (the embedded local network only) is refused (docs/design.md §22). */

import { type Refusal, refusal } from "../../base/errors";

export const SIMULATION_REASONS = [
  "simulation-not-local",
  "simulation-not-pending",
  "simulation-nothing-left",
  "simulation-payer-short",
] as const;
export type SimulationReason = (typeof SIMULATION_REASONS)[number];

export const simulationRefusal: Refusal<SimulationReason> = refusal;
