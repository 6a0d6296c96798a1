/** Why a token cannot be registered or withdrawn (docs/design.md §22). */

import { type Refusal, refusal } from "../../base/errors";

export const TOKEN_REASONS = [
  "network-not-configured",
  /** Not in the operator's token catalogue. */
  "token-not-in-catalogue",
  "token-rpc-unavailable",
  "token-no-contract",
  "token-not-erc20",
  /** The operator disallowed it: it cannot be withdrawn through the gateway. */
  "token-withdrawal-not-accepted",
  "withdrawal-below-minimum",
] as const;
export type TokenReason = (typeof TOKEN_REASONS)[number];

export const tokenRefusal: Refusal<TokenReason> = refusal;
