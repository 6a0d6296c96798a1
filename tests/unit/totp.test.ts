import { describe, expect, it } from "vitest";
import { seal, unseal } from "@/lib/accounts/users/secret-box";
import { fromBase32, matchTotp, otpauthUri, TOTP_STEP_SECONDS, toBase32, totpCode } from "@/lib/accounts/users/totp";
import { useConfig } from "../helpers/config";

// RFC 6238 appendix B (SHA-1): the ASCII seed "12345678901234567890", 8 digits.
const RFC_SEED = toBase32(Buffer.from("12345678901234567890"));
const at = (seconds: number) => Math.floor(seconds / TOTP_STEP_SECONDS);

describe("TOTP (RFC 6238)", () => {
  it.each([
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ])("gives the RFC's code at t = %i", (seconds, code) => {
    expect(totpCode(RFC_SEED, at(seconds), 8)).toBe(code);
  });

  it("accepts the code of the step before and after (clock drift), once, and nothing further off", () => {
    const now = 1_700_000_000_000;
    const step = at(now / 1000);
    expect(matchTotp(RFC_SEED, totpCode(RFC_SEED, step), null, now)).toBe(step);
    expect(matchTotp(RFC_SEED, totpCode(RFC_SEED, step - 1), null, now)).toBe(step - 1);
    expect(matchTotp(RFC_SEED, totpCode(RFC_SEED, step + 1), null, now)).toBe(step + 1);
    expect(matchTotp(RFC_SEED, totpCode(RFC_SEED, step - 2), null, now)).toBeNull();
    expect(matchTotp(RFC_SEED, totpCode(RFC_SEED, step + 2), null, now)).toBeNull();
    // Used once: that step and the ones before it are spent.
    expect(matchTotp(RFC_SEED, totpCode(RFC_SEED, step), step, now)).toBeNull();
    expect(matchTotp(RFC_SEED, totpCode(RFC_SEED, step + 1), step, now)).toBe(step + 1);
    for (const bad of ["", "12345", "1234567", "abcdef", "12 34 5x"]) expect(matchTotp(RFC_SEED, bad, null, now)).toBeNull();
  });

  it("round-trips base32 and writes the URI authenticator apps scan", () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255, 7]);
    expect(fromBase32(toBase32(bytes))).toEqual(bytes);
    expect(() => fromBase32("not base32!")).toThrow();
    expect(otpauthUri("JBSWY3DPEHPK3PXP", "shop@example.com")).toBe(
      "otpauth://totp/BSC%20Pay%3Ashop%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=BSC%20Pay&algorithm=SHA1&digits=6&period=30",
    );
  });

  it("seals seeds so that only this secret opens them, and any change is refused", () => {
    useConfig({ NEXTAUTH_SECRET: "first-secret-0123456789abcdef" });
    const sealed = seal("JBSWY3DPEHPK3PXP", "totp-seed");
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(unseal(sealed, "totp-seed")).toBe("JBSWY3DPEHPK3PXP");
    expect(unseal(sealed, "another-purpose")).toBeNull();
    const [v, iv, data, tag] = sealed.split(".");
    // Flip the first character to another one, so the data always changes (a fixed suffix may
    // already be what the random IV produced).
    const tampered = `${data![0] === "A" ? "B" : "A"}${data!.slice(1)}`;
    expect(unseal([v, iv, tampered, tag].join("."), "totp-seed")).toBeNull();
    useConfig({ NEXTAUTH_SECRET: "second-secret-0123456789abcdef" });
    expect(unseal(sealed, "totp-seed")).toBeNull();
  });
});
