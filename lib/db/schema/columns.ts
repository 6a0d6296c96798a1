import { customType, timestamp } from "drizzle-orm/pg-core";

/** Token amounts in base units: numeric(78,0) holds any uint256; bigint in TypeScript, never a float. */
export const amount = customType<{ data: bigint; driverData: string }>({
  dataType: () => "numeric(78, 0)",
  toDriver: (value) => value.toString(),
  fromDriver: (value) => BigInt(String(value)),
});

/**
 * Sums of amounts (received, late, a forward's expected total): unbounded numeric, so that any
 * number of uint256 transfers, hostile ones included, never overflows the column.
 */
export const amountSum = customType<{ data: bigint; driverData: string }>({
  dataType: () => "numeric",
  toDriver: (value) => value.toString(),
  fromDriver: (value) => BigInt(String(value)),
});

export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true });
