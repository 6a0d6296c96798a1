/**
 * `npm run admin -- <command>`: operator tasks. With the embedded database, stop the server first
 * (PGlite serves one process at a time).
 */

import { formatEther } from "viem";
import { getConfig } from "@/lib/base/config";
import { closeDatabase, getDb } from "@/lib/db";
import { wireEngine } from "@/lib/domain/payments/engine-ports";
import { grantPlan } from "@/lib/domain/plans/grant-plan";
import { loadGasTankGeneration } from "@/lib/engine/chain/gas-tank";
import { listNetworks, publicClientFor } from "@/lib/engine/chain/networks";
import { serviceAddresses } from "@/lib/engine/chain/wallet-addresses";
import { connectLocalChain } from "@/lib/engine/dev/local-chain";
import { CURRENCIES_USAGE, currenciesCommand } from "@/lib/ops/admin/currencies";
import { CUSTODY_USAGE, recoverCommand } from "@/lib/ops/admin/custody";
import { FORWARDS_USAGE, forwardsCommand, stuckForwardsCommand } from "@/lib/ops/admin/forwards";
import { ledgerCommand, OPERATIONS_USAGE, reconcileCommand, statusCommand } from "@/lib/ops/admin/operations";
import { PLANS_USAGE, plansCommand } from "@/lib/ops/admin/plans";
import { quarantineCommand } from "@/lib/ops/admin/quarantine";
import { SWEEPER_USAGE, sweeperCommand } from "@/lib/ops/admin/sweeper";
import { TOKENS_USAGE, tokensCommand } from "@/lib/ops/admin/tokens";
import { createUserCommand, USERS_USAGE } from "@/lib/ops/admin/users";

const USAGE = `usage: npm run admin -- <command>
  grant-plan <email> <plan>   give a user a plan (starter, pro, enterprise)
${PLANS_USAGE}
${USERS_USAGE}
  gas-tank                    the gas tank address and its BNB balance on each network
${TOKENS_USAGE}
${CURRENCIES_USAGE}
${FORWARDS_USAGE}
${SWEEPER_USAGE}
  quarantine [limit]          logs the scanner set aside (undecodable or unrecordable), newest first
${CUSTODY_USAGE}
${OPERATIONS_USAGE}`;

/** Resolves to the exit code (most commands: 0, or they throw). */
async function main(args: string[]): Promise<number | undefined> {
  const [command, ...rest] = args;
  // The engine's ports, as the server and the job steps wire them (forwards, sweeps and recovery run the engine).
  wireEngine();
  // Every command signs, or names the gas tank, with the generation the service uses.
  if (command) await loadGasTankGeneration(await getDb());
  const print = (lines: string[]): undefined => {
    for (const line of lines) console.log(line);
  };
  switch (command) {
    case "grant-plan": {
      const [email, plan] = rest;
      if (!email || !plan) throw new Error(USAGE);
      const subscription = await grantPlan(await getDb(), email, plan);
      console.log(`granted plan ${subscription.planId} to ${email.trim().toLowerCase()} (subscription ${subscription.id})`);
      return;
    }
    case "plans":
      return print(await plansCommand(await getDb(), rest));
    case "create-user":
      return print(await createUserCommand(await getDb(), rest));
    case "gas-tank": {
      const address = serviceAddresses().gasTank();
      console.log(`gas tank ${address}`);
      for (const network of listNetworks()) {
        if (network.embedded) continue;
        const balance = await publicClientFor(network.name)
          .getBalance({ address })
          .catch(() => null);
        console.log(`  ${network.name}: ${balance === null ? "RPC unreachable" : `${formatEther(balance)} BNB`}`);
      }
      return;
    }
    case "tokens":
      if (rest[0] === "allow" && rest[1] === "local") await connectLocalChain(getConfig());
      return print(await tokensCommand(await getDb(), rest));
    case "currencies":
      if (rest[0] === "feed" && rest[1] === "local") await connectLocalChain(getConfig());
      return print(await currenciesCommand(await getDb(), rest));
    case "forwards":
      return print(await forwardsCommand(await getDb(), rest));
    case "stuck-forwards":
      return print(await stuckForwardsCommand(await getDb(), rest));
    case "sweeper":
      if (listNetworks().some((n) => n.embedded)) await connectLocalChain(getConfig());
      return print(await sweeperCommand(await getDb(), rest));
    case "quarantine":
      return print(await quarantineCommand(await getDb(), rest));
    case "reconcile":
      if (listNetworks().some((n) => n.embedded)) await connectLocalChain(getConfig());
      return reconcileCommand(await getDb(), rest, (line) => console.log(line));
    case "status":
      if (listNetworks().some((n) => n.embedded)) await connectLocalChain(getConfig());
      return statusCommand(await getDb(), (line) => console.log(line));
    case "ledger":
      if (listNetworks().some((n) => n.embedded)) await connectLocalChain(getConfig());
      return print(await ledgerCommand(await getDb(), rest));
    case "recover":
      return recoverCommand(await getDb(), rest, (line) => console.log(line));
    default:
      throw new Error(USAGE);
  }
}

main(process.argv.slice(2))
  .then(async (code) => {
    await closeDatabase();
    process.exit(code ?? 0);
  })
  .catch(async (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    await closeDatabase().catch(() => {});
    process.exit(1);
  });
