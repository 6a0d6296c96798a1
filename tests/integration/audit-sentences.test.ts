/**
 * The audit page's sentences read the names their entries speak of from the account's own rows
 * (lib/web/dashboard/audit/audit-names.ts): a token or domain id of another account stays unnamed.
 * Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { userActor } from "@/lib/accounts/audit/actor";
import { recordAudit } from "@/lib/accounts/audit/record-audit";
import { rowsOf } from "@/lib/db/rows";
import { domains, tokens } from "@/lib/db/schema";
import { loadAuditPage } from "@/lib/web/dashboard/audit/audit-log";
import { useTestDatabase } from "../helpers/database";

const db = useTestDatabase();

async function newAccount() {
  const email = `s${Date.now()}${Math.random()}@sentences.test`;
  const [row] = rowsOf<{ id: number; email: string }>(
    await db().execute(sql`insert into users (email, password_hash) values (${email}, 'x') returning id, email`),
  );
  return row!;
}

describe("the audit page's sentences", () => {
  it("name the account's own token and domain, and only its own", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const [token] = await db()
      .insert(tokens)
      .values({
        userId: a.id,
        network: "local",
        contractAddress: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
        symbol: "SECRETX",
        name: "x",
        decimals: 18,
      })
      .returning();
    const [domain] = await db().insert(domains).values({ userId: a.id, origin: "https://a-shop.example" }).returning();
    const policy = (accountId: number, actor: { id: number; email: string }) =>
      recordAudit(db(), {
        accountId,
        actor: userActor(actor),
        address: null,
        action: "approval_policy.changed",
        target: { type: "token", id: token!.id },
        before: { perRequest: null, perDay: null },
        after: { perRequest: "5", perDay: null },
      });
    await policy(a.id, a);
    await recordAudit(db(), {
      accountId: a.id,
      actor: userActor(a),
      address: null,
      action: "domain.webhook_secret_rotated",
      target: { type: "domain", id: domain!.id },
      after: { webhookSecretHint: "…abcd" },
    });
    await policy(b.id, b);
    await recordAudit(db(), {
      accountId: b.id,
      actor: userActor(b),
      address: null,
      action: "domain.webhook_secret_rotated",
      target: { type: "domain", id: domain!.id },
    });

    const sentences = async (accountId: number) => (await loadAuditPage(db(), accountId, {}, {})).page.items.map((i) => i.sentence);
    expect(await sentences(a.id)).toEqual([
      `${a.email} rotated the webhook secret of a-shop.example`,
      `${a.email} set the SECRETX per-request approval limit to 5`,
    ]);
    expect(await sentences(b.id)).toEqual([
      `${b.email} rotated the webhook secret of a domain`,
      `${b.email} set the per-request approval limit to 5`,
    ]);
  });
});
