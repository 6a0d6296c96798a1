/**
 * The scanner's `ScanWatch` port (lib/engine/scanner/scanner.ts): which token contracts it reads
 * logs of (the catalogue's enabled rows), whether it reads blocks for BNB, and which session owns a
 * deposit address — the catalogue's and the sessions' records, answered here for the engine.
 */
import { and, eq, exists, inArray } from "drizzle-orm";
import type { Hex } from "viem";
import type { Db } from "../../db";
import { paymentSessions, tokenCatalogue, tokens } from "../../db/schema";
import type { DepositAddressOwner } from "../../engine/chain/deposit-addresses";
import { NATIVE_TOKEN } from "../../engine/chain/native";
import type { ScanWatch } from "../../engine/scanner/scanner";

async function enabledContracts(db: Db, network: string): Promise<Hex[]> {
  const rows = await db
    .select({ address: tokenCatalogue.contractAddress })
    .from(tokenCatalogue)
    .where(and(eq(tokenCatalogue.network, network), eq(tokenCatalogue.enabled, true)));
  return rows.map((r) => r.address as Hex);
}

/** Whether the scanner reads blocks for BNB on `network`: its catalogue row is enabled and some merchant there registered it. */
async function nativeAccepted(db: Db, network: string): Promise<boolean> {
  const rows = await db
    .select({ network: tokenCatalogue.network })
    .from(tokenCatalogue)
    .where(
      and(
        eq(tokenCatalogue.network, network),
        eq(tokenCatalogue.contractAddress, NATIVE_TOKEN),
        eq(tokenCatalogue.enabled, true),
        exists(
          db
            .select({ id: tokens.id })
            .from(tokens)
            .where(and(eq(tokens.network, network), eq(tokens.contractAddress, NATIVE_TOKEN))),
        ),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * The sessions of `network` whose deposit address is one of `topics` (a Transfer log's topic[2]:
 * lower-case hex without 0x, left-padded to 32 bytes).
 */
async function ownersOfDepositTopics(db: Db, network: string, topics: string[]): Promise<Map<string, DepositAddressOwner>> {
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

export const scanWatchOfCatalogue: ScanWatch = { contracts: enabledContracts, nativeAccepted, depositOwners: ownersOfDepositTopics };
