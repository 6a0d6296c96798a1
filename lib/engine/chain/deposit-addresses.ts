/**
 * Deposit addresses as the chain shows them: a Transfer log's topic[2] (lower-case hex without 0x,
 * left-padded to 32 bytes) is how sessions are looked up by address (their indexed
 * `deposit_topic`). Which session owns an address is the payments' record, asked through the
 * scanner's and forwarding's ports.
 */
import type { Db } from "../../db";

export interface DepositAddressOwner {
  sessionId: string;
  depositAddress: string;
}

/** The sessions of `network` whose deposit address is one of `topics`, by topic. */
export type DepositOwners = (db: Db, network: string, topics: string[]) => Promise<Map<string, DepositAddressOwner>>;

/** A deposit address as its session's indexed `deposit_topic` (the form a Transfer log's topic[2] has). */
export function depositTopicOf(address: string): string {
  return address.slice(2).toLowerCase().padStart(64, "0");
}

/** The distinct topics of these addresses: look sessions up by address through the topic's unique index. */
export function depositTopicsOf(addresses: string[]): string[] {
  return [...new Set(addresses.map(depositTopicOf))];
}
