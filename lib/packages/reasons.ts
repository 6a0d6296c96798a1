/** Why a package refuses a payment, or a plan cannot be chosen (DESIGN.md §22). */

import { type Refusal, refusal } from "../errors";

export const PACKAGE_REASONS = ["no-package", "package-quota-used-up", "plan-unknown", "plan-not-self-serve"] as const;
export type PackageReason = (typeof PACKAGE_REASONS)[number];

export const packageRefusal: Refusal<PackageReason> = refusal;
