/**
 * Hot queries are built once per database handle (drizzle's `prepare`), not on every request:
 * query building is a noticeable share of a short request's CPU.
 */

import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Db } from "./client";

const cache = new WeakMap<Db, Map<string, unknown>>();

export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let forDb = cache.get(db);
  if (!forDb) {
    forDb = new Map();
    cache.set(db, forDb);
  }
  let query = forDb.get(name) as T | undefined;
  if (query === undefined) {
    query = build(db);
    forDb.set(name, query);
  }
  return query;
}

const dialect = new PgDialect();

/**
 * A hand-written statement (an `sql` template whose values are `sql.placeholder`s), prepared once
 * per database handle like the builders' queries. `execute` answers the driver's raw result: read
 * it with `rowsOf`.
 */
export function preparedSql(db: Db, name: string, build: () => SQL) {
  return prepared(db, name, (d) => d._.session.prepareQuery(dialect.sqlToQuery(build()), undefined, name, false));
}
