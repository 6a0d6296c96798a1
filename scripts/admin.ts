import { formatEther } from "viem";
import { keyRingFor } from "@/lib/chain/keys";
import { listNetworks, publicClientFor } from "@/lib/chain/networks";
import { getConfig } from "@/lib/config";
import { closeDatabase, getDb } from "@/lib/db";
import { grantPlan } from "@/lib/packages/grant-plan";
import { openForwards } from "@/lib/chain/forwarder";

/**
 * `npm run admin -- <command>`: operator tasks. With the embedded database, stop the server first
 * (PGlite serves one process at a time).
 */
const USAGE = `usage: npm run admin -- <command>
  grant-plan <email> <plan>   give a user a plan (starter, pro, enterprise)
  gas-tank                    the gas tank address and its BNB balance on each network
  stuck-forwards [minutes]    forwards not completed after [minutes] (default 10), with their last error`;

async function main(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  switch (command) {
    case "grant-plan": {
      const [email, plan] = rest;
      if (!email || !plan) throw new Error(USAGE);
      const subscription = await grantPlan(await getDb(), email, plan);
      console.log(`granted plan ${subscription.planId} to ${email.trim().toLowerCase()} (subscription ${subscription.id})`);
      return;
    }
    case "gas-tank": {
      const address = keyRingFor(getConfig().masterMnemonic).gasTankAddress();
      console.log(`gas tank ${address}`);
      for (const network of listNetworks()) {
        if (network.embedded) continue;
        const balance = await publicClientFor(network.name).getBalance({ address }).catch(() => null);
        console.log(`  ${network.name}: ${balance === null ? "RPC unreachable" : `${formatEther(balance)} BNB`}`);
      }
      return;
    }
    case "stuck-forwards": {
      const minutes = Number(rest[0] ?? 10);
      if (!Number.isFinite(minutes) || minutes < 0) throw new Error(USAGE);
      const stuck = await openForwards(await getDb(), minutes * 60);
      if (stuck.length === 0) console.log(`no forward has been open for more than ${minutes} minutes`);
      for (const f of stuck) {
        console.log(`forward ${f.id} ${f.network} ${f.status} ${f.fromAddress} → ${f.toAddress} amount ${f.amount} (since ${f.createdAt.toISOString()})${f.lastError ? `: ${f.lastError}` : ""}`);
      }
      return;
    }
    default:
      throw new Error(USAGE);
  }
}

main(process.argv.slice(2))
  .then(() => closeDatabase())
  .catch(async (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    await closeDatabase().catch(() => {});
    process.exit(1);
  });
