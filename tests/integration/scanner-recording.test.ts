import { eq } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { describe, expect, it } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { chainCursors, deposits, quarantinedLogs } from "@/lib/db/schema";
import { scanPorts } from "@/lib/domain/payments/engine-ports";
import { recordTransfers } from "@/lib/domain/payments/record-transfers";
import { scanOnce, type TransferRecorder } from "@/lib/engine/scanner/scanner";
import { setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { payTo } from "../helpers/engine";
import { call } from "../helpers/http";

/** The scanner's contract with its (injected) recorder: data it cannot store is set aside, faults are retried. */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });

class DatabaseError extends Error {
  constructor(readonly code: string) {
    super(`database says ${code}`);
  }
}

async function scanToHead(record: TransferRecorder) {
  for (let i = 0; i < 20; i++) {
    const result = await scanOnce(db(), "bsc", { ...scanPorts, record });
    if (!result || result.behind === 0n) return;
  }
}

describe("scanner and recorder", () => {
  it("quarantines a transfer whose recording the database refuses as bad data, records the others, and moves on", async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
    const token = await deployTestToken(chain().url, { symbol: "REC" });
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    const session = async () =>
      (await call(create, { method: "POST", headers: { "x-api-key": merchant.apiKey }, body: { tokenId: merchant.tokenId, amount: "1" } }))
        .body.data as { sessionId: string; depositAddress: Address };
    const [bad, good] = [await session(), await session()];
    const badHash = await payTo(chain().url, token, bad.depositAddress, parseUnits("1", 18));
    await payTo(chain().url, token, good.depositAddress, parseUnits("1", 18));
    await chain().client.mine({ blocks: 1 });

    // A recorder that fails for one transfer only as a database would on a value it cannot hold.
    const refusing: TransferRecorder = async (tx, transfers) => {
      if (transfers.some((t) => t.txHash === badHash)) throw new DatabaseError("22003");
      return recordTransfers(tx, transfers);
    };
    await scanToHead(refusing);
    const [q] = await db().select().from(quarantinedLogs).where(eq(quarantinedLogs.txHash, badHash));
    expect(q!.reason).toBe("recording failed: database says 22003");
    expect(await db().select().from(deposits).where(eq(deposits.sessionId, good.sessionId))).toHaveLength(1);
    expect(await db().select().from(deposits).where(eq(deposits.sessionId, bad.sessionId))).toHaveLength(0);
  });

  it("does not set an honest payment aside for a passing fault: the scan fails and the same blocks are read again", async () => {
    const token = await deployTestToken(chain().url, { symbol: "RE2" });
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    await scanToHead(recordTransfers);
    const res = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount: "1" },
    });
    const { sessionId, depositAddress } = res.body.data as { sessionId: string; depositAddress: Address };
    await payTo(chain().url, token, depositAddress, parseUnits("1", 18));
    await chain().client.mine({ blocks: 1 });
    const [before] = await db().select().from(chainCursors).where(eq(chainCursors.network, "bsc"));
    const flaky: TransferRecorder = async () => {
      throw new DatabaseError("40001"); // serialization failure: try again
    };
    await expect(scanToHead(flaky)).rejects.toThrow("40001");
    const [after] = await db().select().from(chainCursors).where(eq(chainCursors.network, "bsc"));
    expect(after!.lastScannedBlock).toBe(before!.lastScannedBlock);
    expect(await db().select().from(quarantinedLogs)).toHaveLength(1); // only the one from the test before
    await scanToHead(recordTransfers);
    expect(await db().select().from(deposits).where(eq(deposits.sessionId, sessionId))).toHaveLength(1);
  });
});
