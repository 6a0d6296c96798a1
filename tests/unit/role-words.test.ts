import { describe, expect, it } from "vitest";
import { roleNames } from "@/components/members/role-words";

describe("roles named in a sentence", () => {
  it("lists one, two or more roles as a reader says them, with their labels", () => {
    expect(roleNames(["owner"])).toBe("Owner");
    expect(roleNames(["owner", "admin"])).toBe("Owner or Admin");
    expect(roleNames(["owner", "admin", "finance"])).toBe("Owner, Admin or Finance");
    expect(roleNames([])).toBe("");
  });
});
