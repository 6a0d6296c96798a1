/**
 * Keyset cursors for lists ordered newest first by `(created_at, id)` (docs/design.md §25).
 *
 * The cursor carries the row's `created_at` exactly as PostgreSQL holds it (microseconds): a JS
 * Date keeps milliseconds only, and a keyset cut at the millisecond would skip or repeat rows
 * created within the same millisecond. Opaque on the wire (base64url), so shops never build one.
 */

import { validationError } from "./errors";

export interface Cursor {
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ`, UTC, microseconds: what `keysetTimeText` selects. */
  createdAt: string;
  id: string;
}

/** What a list's `id` is: a uuid (payments, withdrawals), a bigint identity (webhook deliveries) or a prefixed public id (approvals: `apr_…`). */
export type CursorIdKind = "uuid" | "integer" | "prefixed";

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A positive bigint that fits (at most 18 digits: below 2^63). */
const INTEGER = /^[1-9]\d{0,17}$/;
const PREFIXED = /^[a-z]{2,8}_[0-9a-f]{24}$/;

/** SQL (as text) that reads a timestamptz column the way a cursor holds it: UTC, microseconds. */
export const KEYSET_TIME_FORMAT = `YYYY-MM-DD"T"HH24:MI:SS.US"Z"`;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`, "utf8").toString("base64url");
}

/** The cursor a client sent back, or a VALIDATION_ERROR: a cursor is only ever one we handed out. */
export function decodeCursor(text: string, idKind: CursorIdKind = "uuid"): Cursor {
  const invalid = () =>
    validationError("cursor is not one this service handed out", [{ path: "cursor", message: "not a cursor from nextCursor" }]);
  if (text.length > 200 || !/^[A-Za-z0-9_-]+$/.test(text)) throw invalid();
  const [createdAt, id, ...rest] = Buffer.from(text, "base64url").toString("utf8").split("|");
  if (
    rest.length > 0 ||
    !createdAt ||
    !id ||
    !TIME.test(createdAt) ||
    !{ uuid: UUID, integer: INTEGER, prefixed: PREFIXED }[idKind].test(id)
  )
    throw invalid();
  if (Number.isNaN(Date.parse(createdAt))) throw invalid();
  return { createdAt, id };
}

/** Whether `text` is a cursor this service handed out (a page that ignores a bad one asks this first). */
export function isCursor(text: string, idKind: CursorIdKind = "uuid"): boolean {
  try {
    decodeCursor(text, idKind);
    return true;
  } catch {
    return false;
  }
}
