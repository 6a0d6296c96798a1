import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "@/lib/base/cursor";
import { AppError } from "@/lib/base/errors";

describe("keyset cursors", () => {
  const cursor = { createdAt: "2026-11-27T12:00:00.123456Z", id: "0b5c7a3e-1d2f-4a6b-8c9d-0e1f2a3b4c5d" };

  it("reads back what it wrote, microseconds included", () => {
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  it.each([
    ["empty", ""],
    ["not base64url", "a+b/c="],
    ["a millisecond time", Buffer.from(`2026-11-27T12:00:00.123Z|${cursor.id}`).toString("base64url")],
    ["no id", Buffer.from("2026-11-27T12:00:00.123456Z|").toString("base64url")],
    ["a non-uuid id", Buffer.from("2026-11-27T12:00:00.123456Z|1 or 1=1").toString("base64url")],
    ["an extra part", Buffer.from(`2026-11-27T12:00:00.123456Z|${cursor.id}|x`).toString("base64url")],
    ["too long", "a".repeat(201)],
  ])("refuses %s with a validation error on the cursor field", (_, text) => {
    let thrown: unknown;
    try {
      decodeCursor(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).code).toBe("VALIDATION_ERROR");
    expect((thrown as AppError).details?.[0]?.path).toBe("cursor");
  });

  it("reads an integer id only where the list's ids are integers (webhook deliveries), and a uuid only where they are uuids", () => {
    const numbered = { createdAt: cursor.createdAt, id: "9007199254740993" };
    expect(decodeCursor(encodeCursor(numbered), "integer")).toEqual(numbered);
    expect(() => decodeCursor(encodeCursor(numbered))).toThrow(AppError);
    expect(() => decodeCursor(encodeCursor(cursor), "integer")).toThrow(AppError);
    for (const id of ["0", "-1", "1e3", "1".repeat(19)])
      expect(() => decodeCursor(encodeCursor({ createdAt: cursor.createdAt, id }), "integer"), id).toThrow(AppError);
  });
});
