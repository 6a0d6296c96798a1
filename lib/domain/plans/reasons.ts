/** Why a plan refuses a payment, or a plan cannot be chosen (docs/design.md §22). */

import { type Refusal, refusal } from "../../base/errors";

export const PLAN_REASONS = ["no-plan", "plan-quota-used-up", "plan-unknown", "plan-not-self-serve"] as const;
export type PlanReason = (typeof PLAN_REASONS)[number];

export const planRefusal: Refusal<PlanReason> = refusal;
