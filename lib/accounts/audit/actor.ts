/**
 * Who did it: a signed-in member, an API key, or the service itself (an expiry, a job). The label is
 * copied into the row when it is written (the member's email, the key's name and prefix), so the
 * log still reads after the member leaves or the key is revoked.
 */

export type AuditActor =
  | { kind: "user"; userId: number; label: string }
  | { kind: "api_key"; apiKeyId: number; label: string }
  | { kind: "system"; label: string };

export type AuditActorKind = AuditActor["kind"];

export const AUDIT_ACTOR_KINDS = ["user", "api_key", "system"] as const satisfies readonly AuditActorKind[];

/** A signed-in member (a `users` row): labelled by email. */
export function userActor(user: { id: number; email: string }): AuditActor {
  return { kind: "user", userId: user.id, label: user.email };
}

/** An API key: labelled `name (prefix…)`, never with the key itself. */
export function apiKeyActor(key: { id: number; name: string; prefix: string }): AuditActor {
  return { kind: "api_key", apiKeyId: key.id, label: `${key.name} (${key.prefix}…)` };
}

/** The service itself: an expiry, a scheduled job. */
export function systemActor(label = "system"): AuditActor {
  return { kind: "system", label };
}
