/**
 * What the withdrawal form says of approvals (client-safe: no database, no Node.js module): whether
 * the amount typed will wait for a second member (docs/design.md §24), in the confirmation's words,
 * and what the Available hint holds back.
 */

import { parseAmount } from "../../../base/money";

export interface SendApproval {
  /** The per-request threshold in the token's units; null: none. */
  perRequest: string | null;
  /** What is left of today's per-day threshold (UTC); null: none. */
  leftToday: string | null;
}

/**
 * "Needs approval (above 5 DUSD)" when `amount` will wait, null when it is sent at once (or is not
 * an amount yet: the send says what is wrong with it). Same rule as the send itself: above the
 * per-request threshold, or taking the day's money out above the per-day one.
 */
export function approvalNote(amount: string, decimals: number, symbol: string, approval: SendApproval | null | undefined): string | null {
  if (!approval) return null;
  const units = parseAmount(amount.trim(), decimals);
  if (typeof units === "string") return null;
  const limit = (text: string | null) => {
    if (text === null) return null;
    if (/^0(\.0*)?$/.test(text)) return 0n;
    const parsed = parseAmount(text, decimals);
    return typeof parsed === "string" ? null : parsed;
  };
  const perRequest = limit(approval.perRequest);
  if (perRequest !== null && units > perRequest) return `Needs approval (above ${approval.perRequest} ${symbol})`;
  const leftToday = limit(approval.leftToday);
  if (leftToday !== null && units > leftToday) return `Needs approval (above the ${approval.leftToday} ${symbol} left of today's limit)`;
  return null;
}

export const SEND_WORDS = {
  cannotBeUndone: "Blockchain transfers cannot be undone. Check the recipient.",
  waits: "A second member approves it on the Approvals page; it is sent then. Check the recipient.",
  send: "Send withdrawal",
  askForApproval: "Ask for approval",
} as const;

/** The Available hint's note of what it holds back: sends not yet mined, and what waits for approval. */
export function heldBackNote(reserved: string, awaitingApproval: string, symbol: string): string | null {
  const parts = [
    reserved !== "0" ? `${reserved} ${symbol} reserved by sends not yet mined` : null,
    awaitingApproval !== "0" ? `${awaitingApproval} ${symbol} waiting for approval` : null,
  ].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join("; ")})` : null;
}
