/**
 * Secrets the service must read back (two-factor seeds) are stored encrypted with AES-256-GCM
 * under a key derived from NEXTAUTH_SECRET: a copy of the database alone does not reveal them.
 * Changing NEXTAUTH_SECRET therefore turns two-factor sign-in off for everyone (README).
 */

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getConfig } from "../../base/config";

function key(purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", getConfig().nextAuthSecret, "bsc-pay", purpose, 32));
}

export function seal(plain: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(purpose), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `v1.${iv.toString("base64url")}.${data.toString("base64url")}.${cipher.getAuthTag().toString("base64url")}`;
}

/** The plain text, or null when it was sealed under another key or altered. */
export function unseal(sealed: string, purpose: string): string | null {
  const [version, iv, data, tag] = sealed.split(".");
  if (version !== "v1" || !iv || !data || !tag) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(purpose), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
