import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { AppError } from "../../base/errors";
import type { Db } from "../../db";
import { requestDb } from "../../db/client";
import { preparedSql } from "../../db/prepared";
import { rowsOf } from "../../db/rows";
import {
  domains,
  type NewPaymentSession,
  paymentSessions,
  plans,
  sessionCounts,
  sessionQuotes,
  sessionUsage,
  subscriptions,
} from "../../db/schema";
import { countSlot } from "../../db/slots";
import { payoutAddressInForce } from "../merchant-domains/payout-change";
import { noPlanError, quotaUsedUpError, usagePeriod } from "../plans/current-plan";
import { paymentRefusal } from "./reasons";

/** Every column of the new session except the two the statement derives from the chosen domain. */
export type SessionValues = Omit<NewPaymentSession, "domainId" | "forwardTo">;

export interface SessionRules {
  userId: number;
  /** `domainId` of the request, if any. */
  domainId?: number;
  /** The request's Origin header as sent (null: none), and normalised (null: not an origin). */
  origin: string | null;
  normalizedOrigin: string | null;
  now: Date;
  /**
   * false for a payment link's session: it needs an active plan with room left in this month's
   * quota, but is counted only once something is paid to it (lib/domain/plans/count-link-sessions.ts).
   */
  countQuota?: boolean;
}

/** A fiat session's locked quote, written by the same statement as its session (session_quotes). */
export interface QuoteValues {
  tokenId: number;
  position: number;
  amount: bigint;
  rate: string;
  source: string;
  offPeg: boolean;
  quotedAt: Date;
  expiresAt: Date;
}

/**
 * Checks the domain and the plan and inserts the session, in one statement (one round trip,
 * atomic on its own or inside the caller's transaction):
 *
 * - the domain (docs/design.md §5): `domainId` if given, else the domain of the `Origin` header, else
 *   the user's first domain; a browser call from an origin the user has not whitelisted is refused
 *   even with a valid domainId;
 * - the forward target: `merchantWallet`, else the domain's payout address in force at `now` (a
 *   requested change counts only from its effective date: payout-change.ts), else its withdrawal wallet;
 * - the plan: an active subscription, and this month's quota counted by a conditional upsert
 *   (the row lock makes concurrent creates unable to overrun it; it rolls back with the statement);
 *   a payment link's session (`countQuota: false`) only needs room left and is counted when paid.
 *
 * The same statement counts the new session, pending as every session starts (its column's default:
 * tests/unit/status-writes.test.ts), in its key's and user's counters (session_counts, in a random
 * slot: session-tallies.ts).
 *
 * A fiat session's quotes are inserted by the same statement too, so a session never exists without them.
 *
 * Nothing is written unless everything passes. Refusals come back as the same errors, in the same
 * order, as the checks made one by one: no domain, origin, domainId, no plan, quota used up.
 * Returns the chosen domain's id.
 */
export async function insertSession(
  db: Db,
  values: SessionValues,
  rules: SessionRules,
  quotes: readonly QuoteValues[] = [],
): Promise<{ domainId: number }> {
  const columns = getTableColumns(paymentSessions);
  const fields = (Object.keys(values) as (keyof SessionValues)[]).filter((key) => values[key] !== undefined);
  const params: Record<string, unknown> = {
    userId: rules.userId,
    domainId: rules.domainId ?? null,
    originGiven: rules.origin !== null,
    origin: rules.normalizedOrigin,
    now: rules.now.toISOString(),
    period: usagePeriod(rules.now),
    countQuota: rules.countQuota !== false,
    slot: countSlot(),
  };
  for (const key of fields) {
    const value = values[key];
    params[`v_${key}`] = value === null ? null : columns[key].mapToDriverValue(value);
  }
  const quoted = quotes.length > 0;
  if (quoted)
    params.quotes = JSON.stringify(
      quotes.map((q) => ({
        token_id: q.tokenId,
        position: q.position,
        amount: q.amount.toString(),
        rate: q.rate,
        source: q.source,
        off_peg: q.offPeg,
        quoted_at: q.quotedAt.toISOString(),
        expires_at: q.expiresAt.toISOString(),
      })),
    );
  const statement = preparedSql(requestDb(db), `insert_session(${fields.join(",")})${quoted ? "+quotes" : ""}`, () =>
    buildStatement(fields, quoted),
  );
  const [outcome] = rowsOf<Outcome>(await statement.execute(params));
  if (!outcome) throw new Error("insert_session answered no row");
  if (outcome.created) return { domainId: Number(outcome.domain_id) };
  throw refusal(outcome, rules);
}

interface Outcome {
  domains: number;
  origin_ok: boolean;
  domain_id: number | null;
  has_plan: boolean;
  plan_name: string | null;
  quota: number | null;
  created: boolean;
}

function refusal(outcome: Outcome, rules: SessionRules): AppError {
  if (Number(outcome.domains) === 0) {
    return paymentRefusal("DOMAIN_NOT_WHITELISTED", "no-domain", "whitelist a domain (POST /api/user/domains) before creating payments");
  }
  if (!outcome.origin_ok)
    return paymentRefusal("DOMAIN_NOT_WHITELISTED", "origin-not-whitelisted", `origin ${rules.origin} is not a whitelisted domain`);
  if (outcome.domain_id === null) {
    return paymentRefusal(
      "DOMAIN_NOT_WHITELISTED",
      "domain-not-yours",
      `domainId ${rules.domainId} is not one of your whitelisted domains`,
    );
  }
  if (!outcome.has_plan) return noPlanError();
  // biome-ignore lint/style/noNonNullAssertion: has_plan means the plan subquery found a row, and plans.name is not null
  return quotaUsedUpError({ name: outcome.plan_name!, monthlySessionQuota: outcome.quota });
}

function buildStatement(fields: (keyof SessionValues)[], quoted: boolean): SQL {
  const columns = getTableColumns(paymentSessions);
  const param = (name: string, type: string) => sql`${sql.placeholder(name)}::${sql.raw(type)}`;
  const userId = param("userId", "integer");
  const domainId = param("domainId", "integer");
  const origin = param("origin", "text");
  const now = param("now", "timestamptz");
  const countQuota = param("countQuota", "boolean");
  const names = fields.map((key) => sql.identifier(columns[key].name));
  const values = fields.map((key) => param(`v_${key}`, columns[key].getSQLType()));
  const merchantWallet = fields.includes("merchantWallet") ? param("v_merchantWallet", "text") : sql`null::text`;
  return sql`
    with owned as (
      select ${domains.id} as id, ${domains.origin} as origin, ${payoutAddressInForce(now)} as payout_address, ${domains.withdrawalAddress} as withdrawal_address
      from ${domains}
      where ${domains.userId} = ${userId} and ${domains.deletedAt} is null
    ),
    origin_ok as (
      select not ${param("originGiven", "boolean")} or exists (select 1 from owned where owned.origin = ${origin}) as ok
    ),
    chosen as (
      select owned.id, owned.payout_address, owned.withdrawal_address
      from owned
      where case
        when ${domainId} is not null then owned.id = ${domainId}
        when ${origin} is not null then owned.origin = ${origin}
        else true
      end
      order by owned.id
      limit 1
    ),
    plan as (
      select ${plans.name} as name, ${plans.monthlySessionQuota} as quota
      from ${subscriptions} inner join ${plans} on ${plans.id} = ${subscriptions.planId}
      where ${subscriptions.userId} = ${userId} and ${subscriptions.status} = 'active'
        and ${subscriptions.startsAt} <= ${now} and (${subscriptions.endsAt} is null or ${subscriptions.endsAt} > ${now})
      limit 1
    ),
    go as (
      select chosen.id as domain_id, coalesce(${merchantWallet}, chosen.payout_address, chosen.withdrawal_address) as forward_to
      from chosen, plan, origin_ok
      where origin_ok.ok and (plan.quota is null or plan.quota >= 1)
    ),
    counted as (
      insert into ${sessionUsage} (${sql.identifier(sessionUsage.userId.name)}, ${sql.identifier(sessionUsage.period.name)}, ${sql.identifier(sessionUsage.sessions.name)})
      select ${userId}, ${param("period", "text")}, 1 from go where ${countQuota}
      on conflict (${sql.identifier(sessionUsage.userId.name)}, ${sql.identifier(sessionUsage.period.name)}) do update
        set ${sql.identifier(sessionUsage.sessions.name)} = ${sessionUsage.sessions} + 1
        where (select quota from plan) is null or ${sessionUsage.sessions} < (select quota from plan)
      returning 1
    ),
    room as (
      select (select quota from plan) is null or coalesce((
        select ${sessionUsage.sessions} from ${sessionUsage}
        where ${sessionUsage.userId} = ${userId} and ${sessionUsage.period} = ${param("period", "text")}
      ), 0) < (select quota from plan) as ok
    ),
    created as (
      insert into ${paymentSessions} (${sql.join(names, sql`, `)}, ${sql.identifier(paymentSessions.domainId.name)}, ${sql.identifier(paymentSessions.forwardTo.name)})
      select ${sql.join(values, sql`, `)}, go.domain_id, go.forward_to
      from go, room
      where case when ${countQuota} then exists (select 1 from counted) else room.ok end
      returning ${paymentSessions.id}, ${paymentSessions.userId}, ${paymentSessions.apiKeyId}
    ),${quoted ? quotesInsert(param("quotes", "jsonb")) : sql``}
    tallied as (
      insert into ${sessionCounts} (${sql.identifier(sessionCounts.userId.name)}, ${sql.identifier(sessionCounts.apiKeyId.name)}, ${sql.identifier(sessionCounts.status.name)}, ${sql.identifier(sessionCounts.slot.name)}, ${sql.identifier(sessionCounts.sessions.name)})
      select created.user_id, created.api_key_id, 'pending', ${param("slot", "smallint")}, 1 from created
      on conflict (${sql.identifier(sessionCounts.userId.name)}, ${sql.identifier(sessionCounts.apiKeyId.name)}, ${sql.identifier(sessionCounts.status.name)}, ${sql.identifier(sessionCounts.slot.name)}) do update
        set ${sql.identifier(sessionCounts.sessions.name)} = ${sessionCounts.sessions} + 1
      returning 1
    )
    select
      (select count(*) from owned)::int as domains,
      (select ok from origin_ok) as origin_ok,
      (select id from chosen) as domain_id,
      exists (select 1 from plan) as has_plan,
      (select name from plan) as plan_name,
      (select quota from plan) as quota,
      exists (select 1 from tallied) as created`;
}

/** The CTE that writes a fiat session's quotes with it (data-modifying CTEs run whether or not anything reads them). */
function quotesInsert(quotes: SQL): SQL {
  const q = sessionQuotes;
  const column = (c: { name: string }) => sql.identifier(c.name);
  return sql`
    quoted as (
      insert into ${q} (${column(q.sessionId)}, ${column(q.tokenId)}, ${column(q.position)}, ${column(q.amount)}, ${column(q.rate)}, ${column(q.source)}, ${column(q.offPeg)}, ${column(q.quotedAt)}, ${column(q.expiresAt)})
      select created.id, r.token_id, r.position, r.amount, r.rate, r.source, r.off_peg, r.quoted_at, r.expires_at
      from created cross join jsonb_to_recordset(${quotes})
        as r(token_id integer, position smallint, amount numeric, rate text, source text, off_peg boolean, quoted_at timestamptz, expires_at timestamptz)
      returning 1
    ),`;
}
