import type { Db } from "../../db";
import { listQuarantine } from "../../engine/scanner/quarantine";

export async function quarantineCommand(db: Db, args: string[]): Promise<string[]> {
  const limit = Math.min(1000, Math.max(1, Number(args[0] ?? 100) || 100));
  const rows = await listQuarantine(db, limit);
  if (rows.length === 0) return ["no quarantined logs"];
  return rows.map(
    (q) =>
      `${q.network} block ${q.blockNumber} tx ${q.txHash} log ${q.logIndex} contract ${q.contractAddress} (${q.createdAt.toISOString()})\n    ${q.reason}\n    topics ${JSON.stringify(q.topics)} data ${q.data.length > 140 ? `${q.data.slice(0, 140)}…` : q.data}`,
  );
}
