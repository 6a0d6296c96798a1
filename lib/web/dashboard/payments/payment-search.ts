/**
 * The dashboard's payment search: what the merchant typed decides what is searched, and every
 * branch is served by an index (drizzle/0028_search_indexes.sql) on PostgreSQL and PGlite alike,
 * so a search costs the same at a million payments as at a hundred (docs/dashboard.md):
 *
 * | typed                         | searched                                                        |
 * | ----------------------------- | --------------------------------------------------------------- |
 * | a payment id (UUID)           | that payment; an order reference starting with it               |
 * | 0x + 64 hex                   | the completing transaction, or any deposit's transaction        |
 * | 0x + 40 hex                   | the deposit address, or the payer's address (a deposit's sender) |
 * | 0x + 6 to 63 hex              | the start of a transaction hash or deposit address              |
 * | key:value                     | metadata whose top-level `key` is `value`; an order reference   |
 * | anything else                 | an order reference starting with it; a metadata value equal to it, at any depth |
 *
 * Hex and order references ignore case; metadata values match exactly. Descriptions are not
 * searched: a substring search over them would scan the history.
 *
 * A broad branch (an order prefix or a metadata value that thousands of payments share) takes at
 * most SEARCH_CAP matches, in its own index's order, before they are sorted newest first: left to
 * itself the planner would walk the whole history newest first looking for matches that may all
 * be old (seconds at a million payments); capped, every search reads a bounded number of rows.
 */

import { and, eq, or, type SQL, sql } from "drizzle-orm";
import { isUuid } from "../../../base/validation";
import { deposits, paymentSessions } from "../../../db/schema";

const TX_HASH = /^0x[0-9a-f]{64}$/i;
const ADDRESS = /^0x[0-9a-f]{40}$/i;
/** Fewer hex digits than this would match a large share of all addresses: not a useful prefix. */
const HEX_PREFIX = /^0x[0-9a-f]{6,63}$/i;
const KEY_VALUE = /^([^:\s]{1,64}):(.+)$/;
const NUMBER = /^-?(0|[1-9]\d{0,14})(\.\d{1,15})?$/;
/** Matches taken from one broad branch: the page says a search this broad should be narrowed. */
export const SEARCH_CAP = 1000;

export type SearchKind = "payment id" | "transaction" | "address" | "hex prefix" | "metadata field" | "order or metadata";

/** How the search box reads `q` (the page says it back to the merchant). */
export function searchKindOf(q: string): SearchKind {
  if (isUuid(q)) return "payment id";
  if (TX_HASH.test(q)) return "transaction";
  if (ADDRESS.test(q)) return "address";
  if (HEX_PREFIX.test(q)) return "hex prefix";
  if (KEY_VALUE.test(q)) return "metadata field";
  return "order or metadata";
}

/** The condition for `q` (already trimmed), within the merchant's payments; the caller ands it with the same scope. */
export function searchCondition(userId: number, q: string): SQL {
  const lower = q.toLowerCase();
  const orderKey = sql`lower(${paymentSessions.orderId})`;
  const orderPrefix = capped(userId, startsWith(orderKey, lower), orderKey);
  const metadataValue = (text: string) => capped(userId, metadataValueIs(text));
  switch (searchKindOf(q)) {
    case "payment id":
      return anyOf(sql`${paymentSessions.id} = ${lower}::uuid`, orderPrefix);
    case "transaction":
      return anyOf(
        sql`lower(${paymentSessions.txHash}) = ${lower}`,
        sessionOfDeposits(sql`lower(${deposits.txHash}) = ${lower}`),
        orderPrefix,
      );
    case "address":
      return anyOf(
        sql`lower(${paymentSessions.depositAddress}) = ${lower}`,
        sessionOfDeposits(sql`lower(${deposits.fromAddress}) = ${lower}`),
        orderPrefix,
      );
    case "hex prefix":
      return anyOf(
        startsWith(sql`lower(${paymentSessions.txHash})`, lower),
        startsWith(sql`lower(${paymentSessions.depositAddress})`, lower),
        sessionOfDeposits(startsWith(sql`lower(${deposits.txHash})`, lower)),
        orderPrefix,
      );
    case "metadata field": {
      // biome-ignore lint/style/noNonNullAssertion: searchKindOf matched KEY_VALUE
      const [, key, value] = KEY_VALUE.exec(q)!;
      const field = (v: unknown) => sql`${paymentSessions.metadata} @> ${JSON.stringify({ [key as string]: v })}::text::jsonb`;
      return anyOf(
        capped(
          userId,
          anyOf(
            field(value),
            NUMBER.test(value as string) ? field(Number(value)) : undefined,
            value === "true" || value === "false" ? field(value === "true") : undefined,
          ),
        ),
        metadataValue(q),
        orderPrefix,
      );
    }
    case "order or metadata":
      return anyOf(orderPrefix, metadataValue(q));
  }
}

// Parameters are cast from text: postgres.js would encode a string sent as jsonb a second time.

/**
 * A string (or the number or boolean it spells) anywhere in the metadata, nested ones included —
 * never a key. The GIN index (jsonb_ops) serves `@@` with `$.**`; jsonb_path_ops would not.
 */
function metadataValueIs(text: string): SQL {
  const alternatives = [`$.** == ${JSON.stringify(text)}`];
  if (NUMBER.test(text)) alternatives.push(`$.** == ${Number(text)}`);
  if (text === "true" || text === "false") alternatives.push(`$.** == ${text}`);
  return sql`${paymentSessions.metadata} @@ ${alternatives.join(" || ")}::jsonpath`;
}

/**
 * Sessions of the deposits matching `condition` (any merchant's: the caller's scope keeps its
 * own), as an array computed once (an InitPlan), so the planner ORs it with the other branches
 * through the primary key instead of testing every row.
 */
function sessionOfDeposits(condition: SQL): SQL {
  return sql`${paymentSessions.id} = any(array(select ${deposits.sessionId} from ${deposits} where ${condition} limit ${SEARCH_CAP}))`;
}

/**
 * The merchant's payments matching a broad `condition`, at most SEARCH_CAP of them, read in
 * `indexOrder` (the branch's own index) when given: an array computed once, as above.
 */
function capped(userId: number, condition: SQL, indexOrder?: SQL): SQL {
  const s = paymentSessions;
  // `using ~<~`: the order of a text_pattern_ops index (bytes), so the index is read in order and stops at the cap.
  const order = indexOrder ? sql` order by ${indexOrder} using ~<~` : sql``;
  return sql`${s.id} = any(array(select ${s.id} from ${s} where ${and(eq(s.userId, userId), condition)}${order} limit ${SEARCH_CAP}))`;
}

/** `expression like 'prefix%'` with the prefix taken literally: a text_pattern_ops index serves it. */
function startsWith(expression: SQL, prefix: string): SQL {
  return sql`${expression} like ${`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`;
}

function anyOf(...conditions: (SQL | undefined)[]): SQL {
  // biome-ignore lint/style/noNonNullAssertion: every caller passes at least one defined condition
  return or(...conditions)!;
}
