import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fillPage } from "../../examples/shop/page.ts";

/** The example shop's product page (examples/shop/page.ts): every value escaped, every placeholder filled. */
describe("the example shop's page", () => {
  const template = readFileSync("examples/shop/page.html", "utf8");
  const values = { BSC_PAY_URL: "http://127.0.0.1:3000", PRODUCT: "Flat white", PRICE: "3.5 DUSD" };

  it("fills every placeholder of page.html", () => {
    const html = fillPage(template, values);
    expect(html).not.toMatch(/\{\{\w+\}\}/);
    expect(html).toContain('<script src="http://127.0.0.1:3000/checkout.js"></script>');
    expect(html).toContain("<h1>Flat white</h1>");
  });

  it("shows a hostile token symbol as text, never as markup, and keeps $ patterns literal", () => {
    const html = fillPage(template, { ...values, PRICE: `3.5 <img src=x onerror=alert(1)>$&"'` });
    expect(html).toContain("3.5 &lt;img src=x onerror=alert(1)&gt;$&amp;&quot;&#39;");
    expect(html).not.toContain("<img");
  });

  it("refuses a placeholder the server does not fill in", () => {
    expect(() => fillPage("<p>{{NAME}}</p>", values)).toThrow("{{NAME}}");
  });
});
