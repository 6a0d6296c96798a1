import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db";
import { paymentSessions } from "../../db/schema";

export interface DepositAddressOwner {
  sessionId: string;
  depositAddress: string;
}

/**
 * The sessions of `network` whose deposit address is one of `topics` (a Transfer log's topic[2]:
 * lower-case hex without 0x, left-padded to 32 bytes).
 */
export async function ownersOfDepositTopics(db: Db, network: string, topics: string[]): Promise<Map<string, DepositAddressOwner>> {
  const found = new Map<string, DepositAddressOwner>();
  for (let i = 0; i < topics.length; i += 500) {
    const chunk = topics.slice(i, i + 500);
    const rows = await db
      .select({ id: paymentSessions.id, topic: paymentSessions.depositTopic, depositAddress: paymentSessions.depositAddress })
      .from(paymentSessions)
      .where(and(eq(paymentSessions.network, network), inArray(paymentSessions.depositTopic, chunk)));
    for (const row of rows) found.set(row.topic, { sessionId: row.id, depositAddress: row.depositAddress });
  }
  return found;
}

/** A deposit address as its session's indexed `deposit_topic` (the form a Transfer log's topic[2] has). */
export function depositTopicOf(address: string): string {
  return address.slice(2).toLowerCase().padStart(64, "0");
}

/** The distinct topics of these addresses: look sessions up by address through the topic's unique index. */
export function depositTopicsOf(addresses: string[]): string[] {
  return [...new Set(addresses.map(depositTopicOf))];
}
