import { connectLocalChain } from "../chain/local-chain";
import { listNetworks } from "../chain/networks";
import { getConfig } from "../config";
import type { Db } from "../db";
import { AppError } from "../errors";
import { recoverFunds } from "../custody/recover";

export const CUSTODY_USAGE = `  recover --to <address> [--network n] [--from-index a --to-index b] [--token <contract>]… [--gap n] [--dry-run]
                              sweep every token balance on the addresses derived from MASTER_MNEMONIC
                              (deposit addresses and withdrawal wallets) to <address>; works on an
                              empty database; --dry-run only lists; exit 1 if anything was not moved`;

interface Flags {
  values: Map<string, string[]>;
  switches: Set<string>;
}

function parseFlags(args: string[], valued: string[], switches: string[]): Flags {
  const flags: Flags = { values: new Map(), switches: new Set() };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (switches.includes(arg)) flags.switches.add(arg);
    else if (valued.includes(arg) && args[i + 1] !== undefined) flags.values.set(arg, [...(flags.values.get(arg) ?? []), args[++i]!]);
    else throw new AppError("VALIDATION_ERROR", `unexpected argument ${arg}\nusage:\n${CUSTODY_USAGE}`);
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
  const flags = parseFlags(args, ["--to", "--network", "--from-index", "--to-index", "--token", "--gap"], ["--dry-run"]);
  const to = flags.values.get("--to")?.at(-1);
  if (!to) throw new AppError("VALIDATION_ERROR", `--to is required\nusage:\n${CUSTODY_USAGE}`);
  const fromIndex = index(flags, "--from-index");
  const toIndex = index(flags, "--to-index");
  if (fromIndex !== undefined && toIndex !== undefined && toIndex < fromIndex) throw new AppError("VALIDATION_ERROR", "--to-index must not be below --from-index");
  const gap = index(flags, "--gap");
  const wanted = flags.values.get("--network")?.at(-1);
  const networks = wanted ? [wanted] : listNetworks().map((n) => n.name);
  if (networks.includes("local")) await connectLocalChain(getConfig());
  let notMoved = 0;
  for (const network of networks) {
    const report = await recoverFunds(db, { network, to, fromIndex, toIndex, gap: gap === 0 ? undefined : gap, dryRun: flags.switches.has("--dry-run"), extraTokens: flags.values.get("--token") ?? [], print });
    notMoved += report.skipped.length + report.unreadable.length;
  }
  return notMoved > 0 ? 1 : 0;
}
