/**
 * The dashboard's payment search (lib/web/dashboard/payments/payment-search.ts) finds the right payments
 * for each kind of input, on whichever driver runs the suite (PGlite by default, PostgreSQL with
 * TEST_DATABASE_URL), and never another merchant's. The list pages by cursor, without a count.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { listUserPayments, paymentFiltersSchema } from "@/lib/web/dashboard/payments/user-payments";
import { useTestDatabase } from "../helpers/database";
import { SEARCH, type SearchFixtures, seedSearchFixtures } from "../helpers/search-fixtures";

const db = useTestDatabase();
let f: SearchFixtures;
const found = async (q: string, userId = f.a) =>
  (await listUserPayments(db(), userId, paymentFiltersSchema.parse({ q }))).items.map((p) => p.sessionId);

beforeAll(async () => {
  f = await seedSearchFixtures(db(), 60);
});

describe("dashboard search", () => {
  it("finds a payment by its id, and not another merchant's", async () => {
    expect(await found(f.paid)).toEqual([f.paid]);
    expect(await found(f.paid.toUpperCase())).toEqual([f.paid]);
    expect(await found(f.theirs)).toEqual([]);
  });

  it("finds by transaction hash, exact or its start, in any case: the completing one and any deposit's", async () => {
    expect(await found(SEARCH.paidTx)).toEqual([f.paid]);
    expect(await found(SEARCH.paidTx.toUpperCase().replace("0X", "0x"))).toEqual([f.paid]);
    expect(await found(SEARCH.paidTx.slice(0, 12))).toEqual([f.paid]);
    expect(await found(SEARCH.partialTx)).toEqual([f.partial]); // a deposit that did not complete the payment
    expect(await found(SEARCH.partialTx.slice(0, 10))).toEqual([f.partial]);
    expect(await found(`0x${"ef".repeat(32)}`)).toEqual([]); // merchant B's
  });

  it("finds by deposit address (exact or its start, any case) and by the payer's address", async () => {
    expect(await found(SEARCH.paidAddress)).toEqual([f.paid]);
    expect(await found(SEARCH.paidAddress.toLowerCase())).toEqual([f.paid]);
    expect(await found(SEARCH.paidAddress.slice(0, 12).toUpperCase().replace("0X", "0x"))).toEqual([f.paid]);
    expect(await found(SEARCH.payer)).toEqual([f.paid]); // B has a payment from the same payer: not listed
    expect(await found(SEARCH.payer, f.b)).toEqual([f.theirs]);
    expect(await found(SEARCH.otherPayer.toUpperCase().replace("0X", "0x"))).toEqual([f.partial]);
  });

  it("finds by order reference (exact or its start, any case)", async () => {
    expect(await found("ORD-10042")).toEqual([f.paid]);
    expect(await found("ord-100")).toEqual([f.paid]);
    expect(await found("inv-2")).toEqual([f.partial]);
    expect(await found("F-59")).toHaveLength(1);
    expect(await found("F-5")).toHaveLength(11); // F-5, F-50 … F-59
  });

  it("finds by a metadata value at any depth, or by key:value, exactly", async () => {
    expect(await found("ada@example.com")).toEqual([f.paid]);
    expect(await found("SKU-7")).toEqual([f.paid]); // nested
    expect(await found("customer:ada@example.com")).toEqual([f.paid]);
    expect(await found("customer:grace@example.com")).toEqual([f.partial]);
    expect(await found("qty:3")).toEqual([]); // key:value looks at top-level fields only
    expect(await found("3")).toEqual([f.paid]); // a number at any depth
    expect(await found("gift:true")).toEqual([f.paid]);
    expect(await found("gift:false")).toEqual([]);
    expect(await found("true")).toEqual([f.paid]);
    expect(await found("ada@example")).toEqual([]); // values match whole
    expect(await found("customer:nobody")).toEqual([]);
  });

  it("does not search descriptions, and takes LIKE's wildcards and jsonpath's quotes literally", async () => {
    expect(await found("Flat white")).toEqual([]);
    for (const q of ["%", "_", "\\", '"', 'a" || $.** == "x', "'", "key:%"]) expect(await found(q), q).toEqual([]);
    expect(paymentFiltersSchema.parse({ q: "ORD\u0000-1" }).q).toBe("ORD-1");
  });

  it("pages by cursor, newest first, with no count; a bad cursor is refused", async () => {
    const seen: string[] = [];
    let page = await listUserPayments(db(), f.a, paymentFiltersSchema.parse({ limit: "25" }));
    expect(page.newer).toBeNull();
    for (;;) {
      seen.push(...page.items.map((p) => p.sessionId));
      if (!page.older) break;
      const older = await listUserPayments(db(), f.a, paymentFiltersSchema.parse({ limit: "25", after: page.older }));
      expect(older.newer).not.toBeNull();
      const back = await listUserPayments(db(), f.a, paymentFiltersSchema.parse({ limit: "25", before: older.newer }));
      expect(back.items.map((p) => p.sessionId)).toEqual(page.items.map((p) => p.sessionId));
      page = older;
    }
    expect(seen).toHaveLength(62);
    expect(new Set(seen).size).toBe(62);
    expect(seen.slice(0, 2)).toEqual([f.paid, f.partial]);
    expect(paymentFiltersSchema.safeParse({ after: "bm90LWEtY3Vyc29y" }).success).toBe(false);
    // Search and cursor together: the rest of the matches.
    const first = await listUserPayments(db(), f.a, paymentFiltersSchema.parse({ q: "F-5", limit: "4" }));
    const rest = await listUserPayments(db(), f.a, paymentFiltersSchema.parse({ q: "F-5", limit: "4", after: first.older }));
    expect([...first.items, ...rest.items].every((p) => p.orderId?.startsWith("F-5"))).toBe(true);
    expect(rest.items).toHaveLength(4);
  });
});
