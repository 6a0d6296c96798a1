import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DateInput } from "@/components/dashboard/date-input";
import { paymentFiltersSchema } from "@/lib/web/dashboard/payments/user-payments";

/** The payments list's date filter, typed on a phone: an iPhone's number pad has no "-". */
describe("the date filter", () => {
  const html = renderToStaticMarkup(createElement(DateInput, { id: "from", name: "from" }));
  const pattern = new RegExp(`^(?:${/pattern="([^"]+)"/.exec(html)?.[1]})$`, "v"); // how the browser applies it

  it("opens the full keyboard, not the number pad, and takes YYYY-MM-DD or YYYYMMDD", () => {
    expect(html).not.toContain("inputMode");
    expect(html).not.toContain("inputmode");
    for (const typed of ["2026-03-04", "20260304"]) expect(typed).toMatch(pattern);
    for (const typed of ["03/04/2026", "2026-3-4", "2026.03.04", "202603041"]) expect(typed).not.toMatch(pattern);
  });

  it("reads YYYYMMDD as YYYY-MM-DD, so the filter shows it the dashboard's way", () => {
    expect(paymentFiltersSchema.parse({ from: "20260304", to: " 20261231 " })).toMatchObject({ from: "2026-03-04", to: "2026-12-31" });
    expect(paymentFiltersSchema.parse({ from: "2026-03-04" }).from).toBe("2026-03-04");
  });

  it("refuses what is not a calendar day", () => {
    for (const bad of ["2026-02-30", "20261301", "2026-13-01", "03/04/2026"]) {
      expect(paymentFiltersSchema.safeParse({ from: bad }).success, bad).toBe(false);
    }
  });
});
