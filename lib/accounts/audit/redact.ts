/**
 * Secrets never reach the audit log: before/after are copied with every field whose name says it
 * holds one replaced by "[redacted]", at any depth. A name is split into words (camelCase,
 * snake_case, kebab-case): it holds a secret when any word is password, secret, mnemonic, seed,
 * totp or otp, or when its last word is key, code, token or hash — so `apiKey`, `webhookSecret`,
 * `code` and `keyHash` go, while `apiKeyId`, `tokenId` and `keyPrefix` (ids and labels) stay.
 * A change may still say that a secret changed: the field stays, its value does not.
 */

export const REDACTED = "[redacted]";

const SECRET_ANYWHERE = new Set(["password", "passwd", "secret", "mnemonic", "seed", "totp", "otp", "passphrase"]);
const SECRET_LAST = new Set(["key", "code", "token", "hash", "pin"]);

/** The words of a field name: `webhookSecret` → [webhook, secret]; `api_key_id` → [api, key, id]. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Whether a field of this name holds a secret (see the module comment). */
export function isSecretField(name: string): boolean {
  const words = wordsOf(name);
  const last = words.at(-1);
  return words.some((w) => SECRET_ANYWHERE.has(w)) || (last !== undefined && SECRET_LAST.has(last));
}

/** The largest before/after the log keeps, as JSON: a change is a few fields, never a document. */
export const AUDIT_VALUE_MAX_BYTES = 8 * 1024;

/** `value` with every secret field redacted (a JSON-compatible copy: Dates as ISO text, bigints as decimal text). */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 10) return REDACTED; // nothing worth auditing is this deep; a cycle would be worse
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  if (typeof value === "object") {
    const copy: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(value)) {
      if (field === undefined) continue;
      copy[name] = isSecretField(name) ? REDACTED : redactSecrets(field, depth + 1);
    }
    return copy;
  }
  if (typeof value === "function" || typeof value === "symbol") return null;
  return value;
}
