// Sends one kind of ledger transaction in its own process (configuration from the environment),
// so a test can kill it while the transaction is between its record and its broadcast, or right
// after the broadcast, and check what a restart does.
import type { Address } from "viem";
import { getDatabase } from "@/lib/db";
import { sendRecorded } from "@/lib/domain/transfers/send-transfer";
import { recordWithdrawal } from "@/lib/domain/withdrawals/send-withdrawal";
import { batchSweepSupport } from "@/lib/engine/forwarding/batched/batch-support";
import { ensureGasBalance } from "@/lib/engine/ledger/gas-top-up";
import { recoverFunds } from "@/lib/ops/custody/recover";
import { dueForwardsStep, forwardStep } from "@/lib/ops/jobs/steps";

async function main() {
  const [kind, ...args] = process.argv.slice(2);
  const { db } = await getDatabase();
  if (kind === "wallet-gas") await ensureGasBalance(db, "bsc", args[0] as Address, BigInt(args[1]!));
  else if (kind === "deploy") await batchSweepSupport(db, "bsc");
  else if (kind === "withdrawal") {
    const [apiKeyId, userId, domainId, tokenId, toAddress, amount] = args;
    const sender = { apiKeyId: Number(apiKeyId), userId: Number(userId) };
    const { withdrawal } = await recordWithdrawal(db, sender, {
      domainId: Number(domainId),
      tokenId: Number(tokenId),
      toAddress: toAddress as Address,
      amount: amount!,
    });
    await sendRecorded(db, withdrawal);
  } else if (kind === "forwards") {
    for (;;) {
      for (const { forwardId } of await dueForwardsStep(db)) await forwardStep(db, forwardId);
      await new Promise((r) => setTimeout(r, 100));
    }
  } else if (kind === "recover")
    await recoverFunds(db, { network: "bsc", to: args[0]!, fromIndex: Number(args[1]), toIndex: Number(args[1]), extraTokens: [args[2]!] });
  else throw new Error(`unknown kind ${kind}`);
}

void main();
