import { describe, expect, it } from "vitest";
import { claimSecretMatches, hashClaimSecret, newClaimSecret } from "@/lib/domain/refunds/claim-secret";

describe("a refund's claim secret", () => {
  it("is 256 random bits as base64url, kept only as its SHA-256", () => {
    const a = newClaimSecret();
    const b = newClaimSecret();
    expect(a.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.secret, "base64url")).toHaveLength(32);
    expect(a.hash).toBe(hashClaimSecret(a.secret));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.secret).not.toBe(b.secret);
  });

  it("matches only its own secret; nothing matches a refund without one", () => {
    const { secret, hash } = newClaimSecret();
    expect(claimSecretMatches(hash, secret)).toBe(true);
    for (const wrong of [`${secret}x`, secret.slice(1), "", null, undefined, "A".repeat(43), "x".repeat(10_000)])
      expect(claimSecretMatches(hash, wrong), String(wrong).slice(0, 20)).toBe(false);
    expect(claimSecretMatches(null, secret)).toBe(false);
    expect(claimSecretMatches(null, "")).toBe(false);
    expect(claimSecretMatches("not-a-hash", secret)).toBe(false);
    // The empty string's hash stored by mistake still opens nothing.
    expect(claimSecretMatches(hashClaimSecret(""), "")).toBe(false);
  });
});
