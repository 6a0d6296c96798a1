import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashRecoveryCode, recoveryCodeMatches } from "@/lib/accounts/users/recovery-codes";

describe("recovery code hashes: scrypt with a salt of its own per code", () => {
  it("hashes the same code differently each time, and each hash matches the code in any case, dash or not", async () => {
    const [a, b] = await Promise.all([hashRecoveryCode("abcde-fghij"), hashRecoveryCode("abcde-fghij")]);
    expect(a).toMatch(/^scrypt\$4096\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("abcde");
    for (const typed of ["abcde-fghij", "ABCDEFGHIJ", " abcde-fghij "]) {
      expect(await recoveryCodeMatches(typed, a)).toBe(true);
      expect(await recoveryCodeMatches(typed, b)).toBe(true);
    }
    expect(await recoveryCodeMatches("abcde-fghik", a)).toBe(false);
  });

  it("still matches a code stored as a bare SHA-256 before salting, and nothing else", async () => {
    const legacy = createHash("sha256").update("abcdefghij").digest("hex");
    expect(await recoveryCodeMatches("abcde-fghij", legacy)).toBe(true);
    expect(await recoveryCodeMatches("abcde-fghik", legacy)).toBe(false);
  });

  it("refuses a malformed or tampered hash instead of trying it (no costly parameters from the row)", async () => {
    const good = await hashRecoveryCode("abcde-fghij");
    const [, , r, p, salt, key] = good.split("$");
    expect(await recoveryCodeMatches("abcde-fghij", `scrypt$${1 << 20}$${r}$${p}$${salt}$${key}`)).toBe(false);
    expect(await recoveryCodeMatches("abcde-fghij", "bcrypt$x")).toBe(false);
    expect(await recoveryCodeMatches("abcde-fghij", "")).toBe(false);
  });
});
