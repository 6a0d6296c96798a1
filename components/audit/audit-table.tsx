import { formatDateTime } from "@/components/dashboard/format";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

export interface AuditRow {
  id: number;
  at: string;
  actor: { kind: "user" | "api_key" | "system"; label: string };
  address: string | null;
  action: string;
  actionLabel: string;
  target: { type: string; id: string } | null;
  before: unknown;
  after: unknown;
}

const ACTOR_KIND = { user: "Member", api_key: "API key", system: "Automatic" } as const;

/** A value as one short line: text as it is, anything else as JSON, cut at 60 characters. */
function short(value: unknown): string {
  const text = value === undefined || value === null ? "—" : typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** What changed, one line per field: `field: before → after` (only the fields that differ; an added one as `field: value`), or the whole values. */
export function changeLines(before: unknown, after: unknown): string[] {
  if (before === null && after === null) return [];
  if (isRecord(before) || isRecord(after)) {
    const was = isRecord(before) ? before : {};
    const now = isRecord(after) ? after : {};
    const names = [...new Set([...Object.keys(was), ...Object.keys(now)])];
    return names
      .filter((name) => JSON.stringify(was[name]) !== JSON.stringify(now[name]))
      .map((name) => {
        // A field the change added reads as its value; one it dropped as "→ —".
        if (!(name in was)) return `${name}: ${short(now[name])}`;
        if (!(name in now)) return `${name}: ${short(was[name])} → —`;
        return `${name}: ${short(was[name])} → ${short(now[name])}`;
      });
  }
  return [before === null ? short(after) : `${short(before)} → ${short(after)}`];
}

function Change({ before, after }: { before: unknown; after: unknown }) {
  const lines = changeLines(before, after);
  if (lines.length === 0) return <span className="text-muted-foreground">—</span>;
  return (
    <ul className="grid gap-0.5 font-mono text-xs">
      {lines.slice(0, 4).map((line) => (
        <li key={line} className="[overflow-wrap:anywhere]">
          {line}
        </li>
      ))}
      {lines.length > 4 && <li className="text-muted-foreground">+{lines.length - 4} more (see the CSV)</li>}
    </ul>
  );
}

/**
 * The audit log, newest first. On a phone the table keeps one column, the action, which carries
 * when, who (and from which IP address), on what and what changed beneath it; wider screens give
 * each its own column, the address under the actor.
 */
export function AuditTable({ rows }: { rows: AuditRow[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead className="hidden sm:table-cell">When</TableHead>
          <TableHead className="md:min-w-44">Action</TableHead>
          <TableHead className="hidden min-w-44 md:table-cell">Actor</TableHead>
          <TableHead className="hidden lg:table-cell">Target</TableHead>
          <TableHead className="hidden md:table-cell">Change</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.id} data-audit-id={row.id} data-action={row.action} className="align-top">
            <TableCell className="hidden align-top text-xs whitespace-nowrap text-muted-foreground sm:table-cell">
              <time dateTime={row.at}>{formatDateTime(row.at)}</time>
            </TableCell>
            <TableCell className="align-top">
              <span className="grid gap-1">
                <span className="font-medium">{row.actionLabel}</span>
                <code className="text-xs [overflow-wrap:anywhere] text-muted-foreground">{row.action}</code>
                <span className="grid gap-0.5 text-xs text-muted-foreground md:hidden">
                  <time dateTime={row.at} className="sm:hidden">
                    {formatDateTime(row.at)}
                  </time>
                  <span className="[overflow-wrap:anywhere]">
                    {ACTOR_KIND[row.actor.kind]}: {row.actor.label}
                    {row.address && ` · ${row.address}`}
                  </span>
                  {row.target && (
                    <span className="[overflow-wrap:anywhere]">
                      {row.target.type} {row.target.id}
                    </span>
                  )}
                  {changeLines(row.before, row.after).length > 0 && <Change before={row.before} after={row.after} />}
                </span>
              </span>
            </TableCell>
            <TableCell className="hidden align-top md:table-cell">
              <span className="grid gap-1">
                <span className="[overflow-wrap:anywhere]">{row.actor.label}</span>
                <Badge variant="neutral" className="w-fit">
                  {ACTOR_KIND[row.actor.kind]}
                </Badge>
                {row.address && (
                  <span className="font-mono text-xs text-muted-foreground">
                    <span className="sr-only">IP address </span>
                    {row.address}
                  </span>
                )}
              </span>
            </TableCell>
            <TableCell className="hidden align-top text-xs lg:table-cell">
              {row.target ? (
                <span className="grid gap-0.5">
                  <span className="text-muted-foreground">{row.target.type}</span>
                  <code className="[overflow-wrap:anywhere]">{row.target.id}</code>
                </span>
              ) : (
                <span className="text-muted-foreground">—</span>
              )}
            </TableCell>
            <TableCell className="hidden min-w-64 align-top md:table-cell">
              <Change before={row.before} after={row.after} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
