import { describe, expect, it } from "vitest";
import { someoneCanApprove } from "@/lib/domain/approvals/approvers";
import { approverRoles, approverWarning, INVITE_APPROVER, SETTINGS_TWO_FACTOR } from "@/lib/web/dashboard/approvals/approval-words";

/** The Approvals page warns before a threshold that nobody (or only one person) could approve is saved. */
const ana = { userId: 1, email: "ana@shop.example" };
const ben = { userId: 2, email: "ben@shop.example" };
const cy = { userId: 3, email: "cy@shop.example" };

describe("approverWarning", () => {
  it("names who may approve from the roles", () => {
    expect(approverRoles()).toBe("an owner, admin or finance member");
  });

  it("nobody eligible: says so, and sends a viewer who could approve to Settings, anyone else to Members", () => {
    const none = { eligible: [], withoutTwoFactor: [ana] };
    expect(approverWarning(none, ana.userId)?.text).toMatch(/^Nobody can approve yet/);
    expect(approverWarning(none, ana.userId)?.link).toEqual(SETTINGS_TWO_FACTOR);
    expect(approverWarning(none, ben.userId)?.link).toEqual(INVITE_APPROVER);
    expect(someoneCanApprove(none, null)).toBe(false);
  });

  it("one eligible: their own requests would wait, said to them and to others", () => {
    const one = { eligible: [ana], withoutTwoFactor: [] };
    expect(approverWarning(one, ana.userId)?.text).toMatch(/^Only you can approve, so what you ask for yourself would wait/);
    expect(approverWarning(one, ben.userId)?.text).toMatch(/^Only ana@shop\.example can approve/);
    expect(someoneCanApprove(one, ana.userId)).toBe(false);
    expect(someoneCanApprove(one, ben.userId)).toBe(true);
  });

  it("two or more eligible: no warning", () => {
    expect(approverWarning({ eligible: [ana, ben], withoutTwoFactor: [cy] }, cy.userId)).toBeNull();
  });
});
