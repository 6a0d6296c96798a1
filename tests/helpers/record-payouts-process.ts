// Records a payout batch in its own process, sends its first chunk, records the second and dies on
// the spot — after that chunk's record is committed, before its bytes are broadcast — as a crash
// at the worst moment would.
import { getDatabase } from "@/lib/db";
import { wireEngine } from "@/lib/domain/payments/engine-ports";
import { recordPayoutBatch } from "@/lib/domain/payouts/record-batch";
import { recordPayoutChunk } from "@/lib/domain/payouts/record-chunk";
import { sendPayoutChunk } from "@/lib/domain/payouts/send-batch";

async function main() {
  wireEngine(); // as the server wires the engine before a request records money out
  const [userId, domainId, tokenId, count] = process.argv.slice(2);
  const { db } = await getDatabase();
  const items = Array.from({ length: Number(count) }, (_, i) => ({
    toAddress: `0x${(0x5afe0000 + i).toString(16).padStart(40, "0")}` as `0x${string}`,
    amount: String(i + 1),
  }));
  const batch = await recordPayoutBatch(
    db,
    { accountId: Number(userId), apiKeyId: null, requestedBy: null },
    { domainId: Number(domainId), tokenId: Number(tokenId), items },
    { awaitingApproval: false },
  );
  const first = await recordPayoutChunk(db, batch.id);
  if (first) await sendPayoutChunk(db, first);
  await recordPayoutChunk(db, batch.id);
  process.kill(process.pid, "SIGKILL");
}

void main();
