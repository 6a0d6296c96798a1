// Records a withdrawal in its own process and dies on the spot — after the record is committed,
// before anything is broadcast — as a crash at the worst moment would.
import { getDatabase } from "@/lib/db";
import { wireEngine } from "@/lib/domain/payments/engine-ports";
import { recordWithdrawal } from "@/lib/domain/withdrawals/send-withdrawal";

async function main() {
  wireEngine(); // as the server wires the engine before a request records money out
  const [apiKeyId, userId, domainId, tokenId, toAddress, amount] = process.argv.slice(2);
  const { db } = await getDatabase();
  await recordWithdrawal(
    db,
    { apiKeyId: Number(apiKeyId), userId: Number(userId) },
    {
      domainId: Number(domainId),
      tokenId: Number(tokenId),
      toAddress: toAddress as `0x${string}`,
      amount: amount!,
    },
  );
  process.kill(process.pid, "SIGKILL");
}

void main();
