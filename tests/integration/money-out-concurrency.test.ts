/**
 * Money out when several people send at once: members on the dashboard and API keys
 * of several members send withdrawals, refunds and payout batches of one account at the same
 * moment. Every request gets its answer (no deadlock surfacing as INTERNAL_ERROR), each transfer is
 * recorded and sent exactly once, and the wallet pays exactly what was asked. The lock order these
 * paths share is written down in lib/domain/transfers/money-out-locks.ts. Then approvals, a rejection
 * and the ledger's job run at the same moment as new sends.
 */

import { eq, inArray } from "drizzle-orm";
import { getAddress } from "viem";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { PUT as putPolicy } from "@/app/api/user/approval-policies/[tokenId]/route";
import { POST as approveRoute } from "@/app/api/user/approvals/[id]/approve/route";
import { POST as rejectRoute } from "@/app/api/user/approvals/[id]/reject/route";
import { POST as createPayouts } from "@/app/api/v1/payouts/route";
import { POST as send } from "@/app/api/v1/withdrawal/send/route";
import { createApiKey } from "@/lib/accounts/api-keys/create-api-key";
import { type Principal, resolvePrincipal } from "@/lib/accounts/members/principal";
import {
  accountMembers,
  approvals,
  chainTransactions,
  type MemberRole,
  payoutBatches,
  payoutItems,
  users,
  withdrawals,
} from "@/lib/db/schema";
import { expireApprovals } from "@/lib/domain/approvals/decide";
import { refundFromDashboard } from "@/lib/domain/refunds/dashboard-refunds";
import { sendWithdrawalFromDashboard } from "@/lib/domain/withdrawals/send";
import { tendLedgerStep } from "@/lib/ops/jobs/steps";
import { signUp } from "../helpers/accounts";
import { addMember, type TestMember } from "../helpers/approvers";
import { tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";
import { paidSession, refundReq, settleWithdrawals, units, useRefundShop } from "../helpers/refunds";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

const shop = useRefundShop();
const db = () => shop.db();
const RECIPIENTS = Array.from({ length: 12 }, (_, i) => getAddress(`0x${(0x50000 + i).toString(16).padStart(40, "0")}`));

interface Member {
  principal: Principal;
  key: string;
}

let owner: Member;
let admin: Member;
let finance: Member;
let financeTwo: Member;
let round = 0;

/** A member of the shop's account with `role` (no two-factor: no code to give) and an API key of their own. */
async function member(role: MemberRole): Promise<Member> {
  const accountId = shop.merchant().userId;
  const user = await signUp();
  await db().insert(accountMembers).values({ accountId, userId: user.userId, role });
  const [row] = await db().select().from(users).where(eq(users.id, user.userId));
  const principal = await resolvePrincipal(db(), row!, accountId);
  const { key } = await createApiKey(db(), accountId, `${role} key`, undefined, user.userId);
  return { principal, key };
}

const withdrawalInput = (to: `0x${string}`, amount: string) => ({
  domainId: shop.merchant().domainId,
  tokenId: shop.merchant().tokenId,
  toAddress: to,
  amount,
});

describe("money out from several members and keys at once", () => {
  beforeAll(async () => {
    const accountId = shop.merchant().userId;
    const [ownerRow] = await db().select().from(users).where(eq(users.id, accountId));
    owner = { principal: await resolvePrincipal(db(), ownerRow!, accountId), key: shop.merchant().apiKey };
    admin = await member("admin");
    finance = await member("finance");
    financeTwo = await member("finance");
  });

  it("answers 20 mixed sends from 4 members and 3 keys: no error, each sent once, the wallet pays exactly the total", async () => {
    const sessions = [];
    for (let i = 0; i < 5; i++) sessions.push(await paidSession(shop, "10", "10")); // one payer: its nonces in turn
    const walletBefore = await tokenBalance(shop.chain().url, shop.token(), shop.wallet());
    const tag = `r${++round}`;
    const apiSend = (who: Member, i: number) =>
      call(send, {
        method: "POST",
        headers: { "x-api-key": who.key, "idempotency-key": `${tag}-w${i}` },
        body: withdrawalInput(RECIPIENTS[i % RECIPIENTS.length]!, "1"),
      });
    const dashboardSend = (who: Member, i: number) =>
      sendWithdrawalFromDashboard(db(), who.principal, withdrawalInput(RECIPIENTS[i % RECIPIENTS.length]!, "1"), `${tag}-d${i}`).then(
        (r) => ({ status: 201, body: { data: r.view } }),
      );
    const apiRefund = (sessionId: string, i: number) =>
      refundReq(shop, sessionId, { amount: "2", toAddress: RECIPIENTS[i]! }, { "idempotency-key": `${tag}-rf${i}` });
    const dashboardRefund = (who: Member, sessionId: string, i: number) =>
      refundFromDashboard(db(), who.principal, sessionId, { amount: "2", toAddress: RECIPIENTS[i]! }, `${tag}-drf${i}`).then((view) => ({
        status: 201,
        body: { data: view },
      }));
    const payout = (who: Member, i: number) =>
      call(createPayouts, {
        method: "POST",
        headers: { "x-api-key": who.key, "idempotency-key": `${tag}-p${i}` },
        body: {
          domainId: shop.merchant().domainId,
          tokenId: shop.merchant().tokenId,
          items: [
            { toAddress: RECIPIENTS[i]!, amount: "1", reference: `${tag}-p${i}-a` },
            { toAddress: RECIPIENTS[i + 1]!, amount: "1", reference: `${tag}-p${i}-b` },
          ],
        },
      });
    const s = sessions.map((x) => x.sessionId);
    const requests = [
      apiSend(owner, 0),
      dashboardSend(admin, 1),
      apiRefund(s[0]!, 2),
      dashboardRefund(finance, s[1]!, 3),
      apiSend(finance, 4),
      dashboardSend(owner, 5),
      payout(admin, 6),
      dashboardSend(financeTwo, 7),
      apiSend(admin, 8),
      dashboardRefund(admin, s[2]!, 9),
      apiSend(financeTwo, 10),
      dashboardSend(finance, 11),
      apiRefund(s[3]!, 0),
      payout(finance, 1),
      apiSend(owner, 2),
      dashboardSend(admin, 3),
      dashboardRefund(owner, s[4]!, 4),
      apiSend(finance, 5),
      dashboardSend(financeTwo, 6),
      apiSend(owner, 7),
    ];
    expect(requests).toHaveLength(20);
    const answers = await Promise.allSettled(requests);
    const failures = answers.flatMap((a, i) =>
      a.status === "rejected" ? [`#${i}: ${String(a.reason)}`] : a.value.status >= 300 ? [`#${i}: ${JSON.stringify(a.value.body)}`] : [],
    );
    expect(failures).toEqual([]);

    // 13 withdrawals + 5 refunds sent as single transfers, 2 batches of 2 items: each once.
    const rows = await db().select().from(withdrawals);
    const ofThisRound = rows.filter((w) => RECIPIENTS.includes(w.toAddress as `0x${string}`));
    expect(ofThisRound).toHaveLength(18);
    expect(new Set(ofThisRound.map((w) => w.nonce)).size).toBe(18);
    const items = await db().select().from(payoutItems).where(inArray(payoutItems.toAddress, RECIPIENTS));
    expect(items).toHaveLength(4);

    for (let i = 0; i < 20; i++) {
      await settleWithdrawals(shop);
      const open = await db().select().from(payoutItems).where(inArray(payoutItems.toAddress, RECIPIENTS));
      if (open.every((item) => item.status === "completed")) break;
    }
    const settled = await db().select().from(withdrawals).where(inArray(withdrawals.toAddress, RECIPIENTS));
    expect(settled.map((w) => w.status)).toEqual(settled.map(() => "completed"));
    const ledger = await db().select().from(chainTransactions).where(eq(chainTransactions.kind, "withdrawal"));
    expect(new Set(ledger.map((r) => `${r.wallet}:${r.nonce}`)).size).toBe(ledger.length);
    // 13 × 1 + 5 refunds × 2 + 4 items × 1
    const walletAfter = await tokenBalance(shop.chain().url, shop.token(), shop.wallet());
    expect(walletBefore - walletAfter).toBe(units("27"));
    // A replay of one of them sends nothing more.
    const replay = await call(send, {
      method: "POST",
      headers: { "x-api-key": owner.key, "idempotency-key": `${tag}-w0` },
      body: withdrawalInput(RECIPIENTS[0]!, "1"),
    });
    expect(replay.status).toBe(201);
    expect(await db().select().from(withdrawals).where(inArray(withdrawals.toAddress, RECIPIENTS))).toHaveLength(18);
  });
});

describe("approvals, rejections and the job at the same moment as new sends", () => {
  it("answers every one: the approved go out once, the rejected never, the new sends once", async () => {
    const { userId, tokenId, domainId, apiKey: shopKey } = shop.merchant();
    const policy = await call(putPolicy, {
      method: "PUT",
      headers: shop.merchant().auth,
      params: { tokenId: String(tokenId) },
      body: { perRequest: "5", perDay: null },
    });
    expect(policy.status).toBe(200);
    const approvers = await Promise.all(
      ["finance", "admin", "finance", "admin"].map((role) => addMember(db(), userId, role as MemberRole)),
    );
    const rejecter = await addMember(db(), userId, "finance", false);
    const { sessionId } = await paidSession(shop, "20", "20");
    const tag = `a${++round}`;

    // Five requests above the threshold wait: three withdrawals, a refund, a payout batch.
    const waiting: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { view } = await sendWithdrawalFromDashboard(db(), owner.principal, withdrawalInput(RECIPIENTS[i]!, "6"), `${tag}-w${i}`);
      expect(view.status).toBe("awaiting_approval");
      waiting.push(view.withdrawalId);
    }
    const refund = await refundReq(shop, sessionId, { amount: "6", toAddress: RECIPIENTS[3]! }, { "idempotency-key": `${tag}-r` });
    expect(refund.body.data.status).toBe("awaiting_approval");
    waiting.push(refund.body.data.refundId);
    const batch = await call(createPayouts, {
      method: "POST",
      headers: { "x-api-key": shopKey, "idempotency-key": `${tag}-p` },
      body: { domainId, tokenId, items: [0, 1].map((i) => ({ toAddress: RECIPIENTS[4 + i]!, amount: "3" })) },
    });
    expect(batch.body.data.status).toBe("awaiting_approval");
    waiting.push(batch.body.data.batchId);
    const approvalIds: string[] = [];
    for (const subjectId of waiting)
      approvalIds.push((await db().select().from(approvals).where(eq(approvals.subjectId, subjectId)))[0]!.id);
    const walletBefore = await tokenBalance(shop.chain().url, shop.token(), shop.wallet());

    const approveAs = (who: TestMember, id: string) =>
      call(approveRoute, { method: "POST", headers: who.headers, params: { id }, body: { code: who.code() } });
    const requests: Promise<{ status: number; body: unknown }>[] = [
      ...approvers.map((who, i) => approveAs(who, approvalIds[i]!)),
      call(rejectRoute, { method: "POST", headers: rejecter.headers, params: { id: approvalIds[4]! }, body: { reason: "no" } }),
      // Under the threshold: sent at once, beside the decisions.
      ...[6, 7, 8].map((i) =>
        call(send, {
          method: "POST",
          headers: { "x-api-key": [admin, finance, financeTwo][i - 6]!.key, "idempotency-key": `${tag}-n${i}` },
          body: withdrawalInput(RECIPIENTS[i]!, "2"),
        }),
      ),
      sendWithdrawalFromDashboard(db(), financeTwo.principal, withdrawalInput(RECIPIENTS[9]!, "2"), `${tag}-n9`).then((r) => ({
        status: 201,
        body: r.view,
      })),
      tendLedgerStep(db()).then(() => ({ status: 200, body: null })),
      expireApprovals(db()).then(() => ({ status: 200, body: null })),
    ];
    const answers = await Promise.allSettled(requests);
    const failures = answers.flatMap((a, i) =>
      a.status === "rejected" ? [`#${i}: ${String(a.reason)}`] : a.value.status >= 300 ? [`#${i}: ${JSON.stringify(a.value.body)}`] : [],
    );
    expect(failures).toEqual([]);

    for (let i = 0; i < 20; i++) {
      await settleWithdrawals(shop);
      const items = await db()
        .select()
        .from(payoutItems)
        .where(inArray(payoutItems.toAddress, [RECIPIENTS[4]!, RECIPIENTS[5]!]));
      if (items.every((item) => item.status !== "pending" && item.status !== "sending")) break;
    }
    const rows = await db()
      .select()
      .from(withdrawals)
      .where(inArray(withdrawals.id, waiting.slice(0, 3)));
    expect(rows.map((w) => w.status).sort()).toEqual(["completed", "completed", "completed"]);
    // 3 × 6 approved withdrawals + the approved 6 refund + 4 × 2 new; the rejected batch paid nothing.
    const walletAfter = await tokenBalance(shop.chain().url, shop.token(), shop.wallet());
    expect(walletBefore - walletAfter).toBe(units("32"));
    const [rejected] = await db().select().from(payoutBatches).where(eq(payoutBatches.id, waiting[4]!));
    expect(rejected?.status).toBe("rejected");
    await call(putPolicy, {
      method: "PUT",
      headers: shop.merchant().auth,
      params: { tokenId: String(tokenId) },
      body: { perRequest: null, perDay: null },
    });
  });
});
