import { sql } from "drizzle-orm";
import { getAddress } from "viem";
import { getConfig } from "../../base/config";
import { AppError } from "../../base/errors";
import type { Db } from "../../db";
import { rowsOf } from "../../db/rows";
import { listNetworks } from "../../engine/chain/networks";
import { connectLocalChain } from "../../engine/dev/local-chain";
import { recoverFunds } from "../custody/recover";
import { LEADER_LOCK_ID } from "../jobs/embedded-runner";

export const CUSTODY_USAGE = `  recover --to <address> [--network n] [--from-index a --to-index b] [--token <contract>]… [--gap n] [--include-bnb] [--dry-run | --yes]
                              sweep every token balance on the addresses derived from MASTER_MNEMONIC
                              (deposit addresses and withdrawal wallets) to <address>; works on an
                              empty database; without --yes it only lists and totals (as --dry-run);
                              --include-bnb also moves the BNB left on them, the gas tanks and the
                              sweeper's owner; refused while a running service leads this database;
                              exit 1 if anything was not moved`;

interface Flags {
  values: Map<string, string[]>;
  switches: Set<string>;
}

function parseFlags(args: string[], valued: string[], switches: string[]): Flags {
  const flags: Flags = { values: new Map(), switches: new Set() };
  for (let i = 0; i < args.length; i++) {
    // biome-ignore lint/style/noNonNullAssertion: the loop runs while i < args.length, so args[i] exists
    const arg = args[i]!;
    const value = args[i + 1];
    if (switches.includes(arg)) flags.switches.add(arg);
    else if (valued.includes(arg) && value !== undefined) {
      flags.values.set(arg, [...(flags.values.get(arg) ?? []), value]);
      i++;
    } else throw new AppError("VALIDATION_ERROR", `unexpected argument ${arg}\nusage:\n${CUSTODY_USAGE}`);
  }
  return flags;
}

function index(flags: Flags, name: string): number | undefined {
  const raw = flags.values.get(name)?.at(-1);
  if (raw === undefined) return undefined;
  if (!/^\d{1,10}$/.test(raw)) throw new AppError("VALIDATION_ERROR", `${name} must be a whole number`);
  return Number(raw);
}

/** `recover …`: prints as it goes; resolves to the exit code. */
export async function recoverCommand(db: Db, args: string[], print: (line: string) => void): Promise<number> {
  const flags = parseFlags(
    args,
    ["--to", "--network", "--from-index", "--to-index", "--token", "--gap"],
    ["--dry-run", "--yes", "--include-bnb"],
  );
  const to = flags.values.get("--to")?.at(-1);
  if (!to) throw new AppError("VALIDATION_ERROR", `--to is required\nusage:\n${CUSTODY_USAGE}`);
  const recipient = checkedRecipient(to, print);
  const send = flags.switches.has("--yes") && !flags.switches.has("--dry-run");
  const fromIndex = index(flags, "--from-index");
  const toIndex = index(flags, "--to-index");
  if (fromIndex !== undefined && toIndex !== undefined && toIndex < fromIndex)
    throw new AppError("VALIDATION_ERROR", "--to-index must not be below --from-index");
  const gap = index(flags, "--gap");
  const wanted = flags.values.get("--network")?.at(-1);
  const networks = wanted ? [wanted] : listNetworks().map((n) => n.name);
  if (send) await assertNoRunningService(db);
  if (networks.includes("local")) await connectLocalChain(getConfig());
  let notMoved = 0;
  let found = 0;
  for (const network of networks) {
    const report = await recoverFunds(db, {
      network,
      to: recipient,
      fromIndex,
      toIndex,
      gap: gap === 0 ? undefined : gap,
      dryRun: !send,
      includeBnb: flags.switches.has("--include-bnb"),
      extraTokens: flags.values.get("--token") ?? [],
      print,
    });
    notMoved += report.skipped.length + report.unreadable.length + (report.bnb?.notMoved ?? 0);
    found += report.stranded.length;
  }
  if (!send && !flags.switches.has("--dry-run") && found > 0)
    print(`nothing was sent: check the totals and ${recipient}, then run the same command again with --yes`);
  return notMoved > 0 ? 1 : 0;
}

/**
 * --to as typed: a mixed-case address must carry its checksum (a typo in it is caught); an
 * all-lowercase one has none to check, so the command says so (and sends only with --yes anyway).
 */
function checkedRecipient(to: string, print: (line: string) => void): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(to)) throw new AppError("VALIDATION_ERROR", "--to must be an address (0x + 40 hex digits)");
  const digits = to.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) {
    print(`--to ${to} has no checksum (all one case): compare it with the address character by character before adding --yes`);
    return getAddress(to.toLowerCase());
  }
  if (getAddress(to) !== to)
    throw new AppError("VALIDATION_ERROR", `--to ${to} fails its checksum: a character is wrong; copy the address again`);
  return to;
}

/**
 * Recovery signs from the same wallets as the engine: with a service leading this database (its
 * job runner holds the leader lock), two signers would race for the same nonces. Stop it first.
 */
async function assertNoRunningService(db: Db): Promise<void> {
  const [row] = rowsOf<{ free: boolean }>(
    await db.transaction((tx) => tx.execute(sql`select pg_try_advisory_xact_lock(${LEADER_LOCK_ID}) as free`)),
  );
  if (row && !row.free) {
    throw new AppError(
      "VALIDATION_ERROR",
      "a running BSC Pay service is working on this database (it holds the job runner's lock): stop it, then run recover again",
    );
  }
}
