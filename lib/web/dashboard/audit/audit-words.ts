/** The audit log page's words (client-safe: no database, no Node.js module). */

export const ACTOR_KIND_WORDS = { user: "Member", api_key: "API key", system: "Automatic" } as const;

export const AUDIT_WORDS = {
  details: "Details",
  before: "Before",
  after: "After",
  target: "On",
  nothing: "—",
} as const;

/** A before/after value as recorded, for the disclosure: JSON, two-space indented; none as "—". */
export function rawValue(value: unknown): string {
  return value === null || value === undefined ? AUDIT_WORDS.nothing : JSON.stringify(value, null, 2);
}
