import { eq } from "drizzle-orm";
import { type Address, parseEther, parseUnits } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { asOwner } from "@/lib/accounts/members/principal";
import { changePassword } from "@/lib/accounts/users/change-password";
import { verifyPassword } from "@/lib/accounts/users/password";
import { deposits, paymentSessions, users, withdrawals } from "@/lib/db/schema";
import { sendWithdrawalFromDashboard } from "@/lib/domain/withdrawals/send";
import { availableToWithdraw, getUserWithdrawal, listUserWithdrawals } from "@/lib/domain/withdrawals/user-withdrawals";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { simulatePayment } from "@/lib/ops/seed/simulate-payment";
import { onboarding, paymentsByStatus, volumeByDay } from "@/lib/web/dashboard/overview/overview";
import { cancelUserPayment, getUserPayment } from "@/lib/web/dashboard/payments/payment-detail";
import { paymentExportBatches } from "@/lib/web/dashboard/payments/payments-export";
import { listUserPayments, paymentFiltersSchema } from "@/lib/web/dashboard/payments/user-payments";
import { csvLine } from "@/lib/web/dashboard/shared/csv";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine } from "../helpers/engine";
import { call } from "../helpers/http";

/** What the dashboard reads and does, below its pages: always scoped to the signed-in merchant. */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const RECIPIENT = "0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199" as Address;

let a: Merchant;
let b: Merchant;
let token: Address;
const filters = (input: Record<string, unknown> = {}) => paymentFiltersSchema.parse(input);
async function newSession(m: Merchant, amount: string) {
  const res = await call(create, { method: "POST", headers: { "x-api-key": m.apiKey }, body: { tokenId: m.tokenId, amount } });
  return res.body.data as { sessionId: string; depositAddress: Address };
}

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  token = await deployTestToken(chain().url, { symbol: "DSH" });
  [a, b] = [
    await setUpMerchant({ contractAddress: token, network: "bsc" }),
    await setUpMerchant({ contractAddress: token, network: "bsc" }),
  ];
  await fundGasTank(chain().url);
});

describe("dashboard data", () => {
  it("lists a merchant's payments with filters, search and pages, never another merchant's", async () => {
    const [paid, open, other] = [await newSession(a, "5"), await newSession(a, "7"), await newSession(b, "9")];
    const hash = await payTo(chain().url, token, paid.depositAddress, parseUnits("5", 18));
    await chain().client.mine({ blocks: 1 });
    await runEngine(db(), chain().url);

    const all = await listUserPayments(db(), a.userId, filters());
    expect(all.items.map((p) => p.sessionId).sort()).toEqual([paid.sessionId, open.sessionId].sort());
    expect(all).toMatchObject({ newer: null, older: null });
    expect((await listUserPayments(db(), a.userId, filters({ status: "completed" }))).items.map((p) => p.sessionId)).toEqual([
      paid.sessionId,
    ]);
    expect((await listUserPayments(db(), a.userId, filters({ q: hash.slice(0, 12) }))).items.map((p) => p.sessionId)).toEqual([
      paid.sessionId,
    ]);
    expect(
      (await listUserPayments(db(), a.userId, filters({ q: open.depositAddress.toLowerCase() }))).items.map((p) => p.sessionId),
    ).toEqual([open.sessionId]);
    expect((await listUserPayments(db(), a.userId, filters({ q: other.sessionId }))).items).toEqual([]);
    expect((await listUserPayments(db(), a.userId, filters({ q: "%" }))).items).toEqual([]);
    expect((await listUserPayments(db(), a.userId, filters({ tokenId: String(b.tokenId) }))).items).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await listUserPayments(db(), a.userId, filters({ from: today, to: today }))).items).toHaveLength(2);
    expect((await listUserPayments(db(), a.userId, filters({ to: "2020-01-01" }))).items).toHaveLength(0);
    // Pages by cursor: Older from the first page, Newer back from the second.
    const first = await listUserPayments(db(), a.userId, filters({ limit: "1" }));
    expect(first).toMatchObject({ newer: null, older: expect.any(String) });
    const second = await listUserPayments(db(), a.userId, filters({ limit: "1", after: first.older }));
    expect(second).toMatchObject({ newer: expect.any(String), older: null });
    expect([...first.items, ...second.items].map((p) => p.sessionId)).toEqual(all.items.map((p) => p.sessionId));
    expect((await listUserPayments(db(), a.userId, filters({ limit: "1", before: second.newer }))).items).toEqual(first.items);
    expect(paymentFiltersSchema.safeParse({ after: "not-a-cursor" }).success).toBe(false);
    expect(paymentFiltersSchema.safeParse({ from: "yesterday" }).success).toBe(false);
    expect(paymentFiltersSchema.safeParse({ status: "paid" }).success).toBe(false);

    expect(await paymentsByStatus(db(), a.userId)).toEqual({ pending: 1, completed: 1, expired: 0, cancelled: 0 });
    const volume = await volumeByDay(db(), a.userId, 7);
    expect(volume.points).toHaveLength(7);
    expect(volume.totals).toEqual([{ symbol: "DSH", total: "5" }]);
    expect(volume.points.at(-1)).toMatchObject({ day: today, DSH: "5" });
  });

  it("streams the CSV export in batches, newest first, with cells a spreadsheet cannot execute", async () => {
    const rows = [];
    for await (const batch of paymentExportBatches(db(), a.userId, filters(), 1)) rows.push(batch.text.split(",")[0]);
    expect(rows).toEqual((await listUserPayments(db(), a.userId, filters())).items.map((p) => p.sessionId));
    expect(csvLine(["plain", 'with "quotes", commas', '=HYPERLINK("x")', null, 12])).toBe(
      'plain,"with ""quotes"", commas","\'=HYPERLINK(""x"")",,12\r\n',
    );
  });

  it("shows a payment's timeline — created, deposit, forward, final — and hides it from another merchant", async () => {
    const [paid] = (await listUserPayments(db(), a.userId, filters({ status: "completed" }))).items;
    const detail = await getUserPayment(db(), a.userId, paid!.sessionId);
    expect(detail.timeline.map((e) => e.kind)).toEqual(["created", "deposit", "final", "forward"]);
    expect(detail.timeline.find((e) => e.kind === "deposit")).toMatchObject({
      amount: "5",
      token: "DSH",
      counted: true,
      txUrl: expect.stringMatching(/^https:\/\/bscscan\.com\/tx\/0x/),
    });
    expect(detail.timeline.find((e) => e.kind === "forward")).toMatchObject({
      status: "completed",
      amount: "5",
      sweepTxHash: expect.stringMatching(/^0x/),
      heldReason: null,
    });
    expect(detail).toMatchObject({ status: "completed", receivedAmount: "5", remainingAmount: "0", partial: false });
    await expect(getUserPayment(db(), b.userId, paid!.sessionId)).rejects.toThrow("payment not found");
    await expect(getUserPayment(db(), a.userId, "not-a-uuid")).rejects.toThrow("payment not found");
    // A chain whose clock runs behind ours stamps the deposit before the creation: creation still comes first.
    const [row] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, paid!.sessionId));
    await db()
      .update(deposits)
      .set({ blockTimestamp: new Date(row!.createdAt.getTime() - 5_000) })
      .where(eq(deposits.sessionId, paid!.sessionId));
    expect((await getUserPayment(db(), a.userId, paid!.sessionId)).timeline.map((e) => e.kind)).toEqual([
      "created",
      "deposit",
      "final",
      "forward",
    ]);
  });

  it("cancels only the merchant's own pending payment", async () => {
    const [open] = (await listUserPayments(db(), a.userId, filters({ status: "pending" }))).items;
    await expect(cancelUserPayment(db(), b.userId, open!.sessionId)).rejects.toThrow("payment not found");
    expect((await db().select().from(paymentSessions).where(eq(paymentSessions.id, open!.sessionId)))[0]!.status).toBe("pending");
    expect(await cancelUserPayment(db(), a.userId, open!.sessionId)).toMatchObject({ status: "cancelled" });
  });

  it("sends a dashboard withdrawal once however often the same form is submitted, showing what is available", async () => {
    const wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(a.domainId);
    expect(await availableToWithdraw(db(), a.userId, a.domainId, a.tokenId)).toMatchObject({ available: "5", symbol: "DSH", wallet }); // the forwarded payment
    await chain().client.setBalance({ address: wallet, value: parseEther("1") });
    const input = { domainId: a.domainId, tokenId: a.tokenId, toAddress: RECIPIENT, amount: "2" };
    const requestId = crypto.randomUUID();
    const [userRow] = await db().select().from(users).where(eq(users.id, a.userId));
    const sent = await Promise.all([1, 2, 3].map(() => sendWithdrawalFromDashboard(db(), asOwner(userRow!), input, requestId)));
    expect(new Set(sent.map((s) => s.view.withdrawalId)).size).toBe(1);
    expect(await db().select().from(withdrawals).where(eq(withdrawals.userId, a.userId))).toHaveLength(1);
    expect((await availableToWithdraw(db(), a.userId, a.domainId, a.tokenId)).reserved).toBe("2");
    const list = await listUserWithdrawals(db(), a.userId, { limit: 20 });
    expect(list.items).toEqual([expect.objectContaining({ withdrawalId: sent[0]!.view.withdrawalId, source: "dashboard", amount: "2" })]);
    expect((await listUserWithdrawals(db(), b.userId, { limit: 20 })).items).toEqual([]);
    await expect(getUserWithdrawal(db(), b.userId, sent[0]!.view.withdrawalId)).rejects.toThrow("withdrawal not found");
    await expect(
      sendWithdrawalFromDashboard(db(), asOwner(userRow!), { ...input, domainId: b.domainId }, crypto.randomUUID()),
    ).rejects.toThrow("not found");
  });

  it("tracks the first-run checklist", async () => {
    expect((await onboarding(db(), a.userId)).complete).toBe(true);
    const fresh = await db().insert(users).values({ email: "fresh@example.com", passwordHash: "x" }).returning();
    const steps = await onboarding(db(), fresh[0]!.id);
    expect(steps.complete).toBe(false);
    expect(steps.steps.map((s) => [s.id, s.done])).toEqual([
      ["plan", false],
      ["token", false],
      ["domain", false],
      ["api-key", false],
      ["payment", false],
    ]);
    // The last step opens the dashboard's own create form, not the API docs.
    expect(steps.steps.at(-1)?.href).toBe("/dashboard/payments/new");
  });

  it("changes a password only with the current one", async () => {
    await expect(
      changePassword(db(), a.userId, { currentPassword: "wrong password!", newPassword: "a brand new password" }),
    ).rejects.toThrow("the current password is wrong");
    await changePassword(db(), a.userId, { currentPassword: "correct horse battery", newPassword: "a brand new password" });
    const [user] = await db().select().from(users).where(eq(users.id, a.userId));
    expect(await verifyPassword("a brand new password", user!.passwordHash)).toBe(true);
  });

  it("simulates payments on the embedded network only", async () => {
    const [pending] = await Promise.all([newSession(a, "1")]);
    await expect(simulatePayment(db(), a.userId, pending.sessionId)).rejects.toThrow("on the embedded network local only");
    await expect(simulatePayment(db(), b.userId, pending.sessionId)).rejects.toThrow("payment not found");
  });
});
