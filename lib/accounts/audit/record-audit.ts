/**
 * Writes one audit row. Takes the caller's handle, so a call inside a transaction commits or rolls
 * back with the change it records: the log never says something happened that did not.
 */

import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import { type AuditEvent, auditEvents } from "../../db/schema";
import type { AuditAction } from "./actions";
import type { AuditActor } from "./actor";
import { AUDIT_VALUE_MAX_BYTES, redactSecrets } from "./redact";

export interface AuditInput {
  /** The account acted on (today: the merchant's users.id). */
  accountId: number;
  actor: AuditActor;
  /** The client's IP address (lib/web/http/client-ip.ts `clientAddress`), or null when there was no request. */
  address: string | null;
  action: AuditAction;
  /** What was acted on: e.g. `{ type: "api_key", id: "12" }`, `{ type: "withdrawal", id: uuid }`. */
  target?: { type: string; id: string | number };
  /** The changed fields as they were / are now; secrets are redacted (redact.ts). */
  before?: unknown;
  after?: unknown;
}

/** Longest label and address kept: both come from a person or a request, and the log is not storage. */
const LABEL_MAX = 200;
const ADDRESS_MAX = 64;
const TARGET_MAX = 100;

/** Records `input` and returns the row. Throws (a programming error) on a before/after over 8 KB. */
export async function recordAudit(db: Db, input: AuditInput): Promise<AuditEvent> {
  const before = input.before === undefined ? null : redactSecrets(input.before);
  const after = input.after === undefined ? null : redactSecrets(input.after);
  for (const value of [before, after]) {
    if (value !== null && JSON.stringify(value).length > AUDIT_VALUE_MAX_BYTES) {
      throw new Error(`audit ${input.action}: before/after over ${AUDIT_VALUE_MAX_BYTES} bytes; record the changed fields only`);
    }
  }
  const { actor } = input;
  const rows = await db
    .insert(auditEvents)
    .values({
      accountId: input.accountId,
      actorKind: actor.kind,
      actorUserId: actor.kind === "user" ? actor.userId : null,
      actorApiKeyId: actor.kind === "api_key" ? actor.apiKeyId : null,
      actorLabel: actor.label.slice(0, LABEL_MAX),
      address: input.address?.slice(0, ADDRESS_MAX) || null,
      action: input.action,
      targetType: input.target ? input.target.type.slice(0, TARGET_MAX) : null,
      targetId: input.target ? String(input.target.id).slice(0, TARGET_MAX) : null,
      before,
      after,
    })
    .returning();
  return requireRow(rows, `audit ${input.action}`);
}
