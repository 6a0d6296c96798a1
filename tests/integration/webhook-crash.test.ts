import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { type Address, parseUnits } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { PATCH as patchDomain } from "@/app/api/user/domains/[id]/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { closeDatabase } from "@/lib/db";
import { webhookDeliveries } from "@/lib/db/schema";
import { scanNetworkStep } from "@/lib/ops/jobs/steps";
import { setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { openFileDatabase } from "../helpers/database";
import { payTo } from "../helpers/engine";
import { call } from "../helpers/http";
import { startWebhookReceiver } from "../helpers/webhook-receiver";

const chain = useTestChain({ chainId: 56 });
const dir = join(mkdtempSync(join(tmpdir(), "bscpay-webhook-crash-")), "pglite");
const LEASE_MS = 3_000;
const env = () => ({
  BSC_RPC_URL: chain().url,
  NEXTAUTH_SECRET: "integration-test-secret-0123456789",
  CONFIRMATIONS: "1",
  MASTER_MNEMONIC: TEST_MNEMONIC,
  PGLITE_DIR: dir,
  WEBHOOK_ALLOW_PRIVATE: "true",
});
afterAll(() => closeDatabase());

function startWorker(): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "tests/helpers/webhook-process.ts"], {
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME!,
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      WEBHOOK_TEST_LEASE_MS: String(LEASE_MS),
      ...env(),
    },
    stdio: "ignore",
  });
}
async function kill(worker: ChildProcess) {
  worker.kill("SIGKILL");
  await new Promise((r) => worker.once("exit", r));
}

describe("a crash between 'event committed' and 'delivered'", () => {
  it("delivers the event after the sender is killed mid-request and restarted, with the same webhook-id", async () => {
    useConfig(env());
    const receiver = await startWebhookReceiver((n) => (n === 0 ? "hang" : 200));
    let handle = await openFileDatabase(dir);
    try {
      const token = await deployTestToken(chain().url, { symbol: "WHC" });
      const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
      const saved = await call(patchDomain, {
        method: "PATCH",
        headers: merchant.auth,
        params: { id: String(merchant.domainId) },
        body: { webhookUrl: receiver.url },
      });
      const secret = saved.body.data.webhookSecret as string;
      const created = await call(create, {
        method: "POST",
        headers: { "x-api-key": merchant.apiKey },
        body: { tokenId: merchant.tokenId, amount: "3", merchantWallet: "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f" },
      });
      await chain().client.waitForTransactionReceipt({
        hash: await payTo(chain().url, token, created.body.data.depositAddress as Address, parseUnits("3", 18)),
      });
      await chain().client.mine({ blocks: 1 });
      await scanNetworkStep(handle.db, "bsc"); // completes the session and commits its event
      const [committed] = await handle.db.select().from(webhookDeliveries);
      expect(committed).toMatchObject({ eventType: "payment.completed", status: "pending", attempts: 0 });
      await handle.close();

      // The sender is killed while the receiver holds its request open.
      let worker = startWorker();
      await receiver.waitFor(1);
      await kill(worker);
      handle = await openFileDatabase(dir);
      const [afterCrash] = await handle.db.select().from(webhookDeliveries);
      expect(afterCrash).toMatchObject({ status: "pending", attempts: 0, deliveredAt: null }); // nothing recorded, nothing lost
      expect(afterCrash!.lockedUntil).not.toBeNull();
      await handle.close();

      // The restarted sender takes it up again once the dead one's lease has run out.
      worker = startWorker();
      try {
        const [first, second] = await receiver.waitFor(2, 20_000);
        expect(second!.headers["webhook-id"]).toBe(committed!.eventId);
        expect(first!.headers["webhook-id"]).toBe(committed!.eventId);
        expect(second!.body).toBe(first!.body);
        // Not before the dead sender's lease ran out (the lease starts when it claims, a little before
        // its request reaches the receiver, so the gap between the two requests may be under LEASE_MS).
        expect(second!.at).toBeGreaterThanOrEqual(afterCrash!.lockedUntil!.getTime());
        const headers = {
          "webhook-id": String(second!.headers["webhook-id"]),
          "webhook-timestamp": String(second!.headers["webhook-timestamp"]),
          "webhook-signature": String(second!.headers["webhook-signature"]),
        };
        expect(new Webhook(secret).verify(second!.body, headers)).toMatchObject({
          type: "payment.completed",
          data: { status: "completed" },
        });
        // Give the worker time to record the outcome before it is stopped.
        await new Promise((r) => setTimeout(r, 1000));
      } finally {
        await kill(worker);
      }
      handle = await openFileDatabase(dir);
      const [done] = await handle.db.select().from(webhookDeliveries);
      expect(done).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200 });
      expect(receiver.received).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });
});
