import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "@/lib/accounts/users/password";
import { AppError, ERROR_STATUS } from "@/lib/base/errors";
import { normalizeOrigin } from "@/lib/base/normalize-origin";
import { parseAddress } from "@/lib/engine/chain/address";

describe("normalizeOrigin", () => {
  it.each([
    ["https://Shop.Example.com", "https://shop.example.com"],
    ["https://shop.example.com/", "https://shop.example.com"],
    ["http://localhost:3000", "http://localhost:3000"],
    ["https://shop.example.com:443", "https://shop.example.com"],
    ["  http://127.0.0.1:8080 ", "http://127.0.0.1:8080"],
  ])("%s → %s", (input, expected) => expect(normalizeOrigin(input)).toBe(expected));

  it.each([
    "shop.example.com",
    "ftp://shop.example.com",
    "https://shop.example.com/path",
    "https://a.com?x=1",
    "https://u:p@a.com",
    "",
    "https://",
  ])("rejects %j", (input) => expect(normalizeOrigin(input)).toBeNull());
});

describe("parseAddress", () => {
  it("accepts any single case and returns the checksum form", () => {
    expect(parseAddress("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266")).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(parseAddress("0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266")).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
  });
  it("rejects a mixed-case address with a wrong checksum, and non-addresses", () => {
    expect(parseAddress("0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266")).toBeNull();
    expect(parseAddress("0x1234")).toBeNull();
    expect(parseAddress("f39fd6e51aad88f6f4ce6ab8827279cfffb92266")).toBeNull();
  });
});

describe("passwords", () => {
  it("hashes with scrypt and a salt, and verifies only the right password", async () => {
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("wrong horse battery", a)).toBe(false);
    expect(await verifyPassword("x", "garbage")).toBe(false);
  });
});

describe("AppError", () => {
  it("maps every code of docs/design.md §5 to its HTTP status", () => {
    expect(ERROR_STATUS).toEqual({
      VALIDATION_ERROR: 400,
      UNAUTHORIZED: 401,
      NO_PACKAGE: 402,
      DOMAIN_NOT_WHITELISTED: 403,
      FORBIDDEN: 403,
      NOT_FOUND: 404,
      IDEMPOTENCY_CONFLICT: 409,
      RATE_LIMITED: 429,
      REGISTRATION_CLOSED: 403,
      BLOCKCHAIN_ERROR: 502,
      INTERNAL_ERROR: 500,
    });
    expect(new AppError("NO_PACKAGE", "x").status).toBe(402);
  });
});
