import { formatDateTime } from "@/components/dashboard/format";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { ACTOR_KIND_WORDS, AUDIT_WORDS, rawValue } from "@/lib/web/dashboard/audit/audit-words";

export interface AuditRow {
  id: number;
  at: string;
  actor: { kind: "user" | "api_key" | "system"; label: string };
  address: string | null;
  action: string;
  actionLabel: string;
  /** The entry as a sentence (lib/web/dashboard/audit/audit-sentences.ts). */
  sentence: string;
  target: { type: string; id: string } | null;
  before: unknown;
  after: unknown;
}

/** The entry as it was recorded — action, target, before and after — one click away from its sentence. */
function Details({ row }: { row: AuditRow }) {
  return (
    <details className="group text-xs" data-testid="audit-details">
      <summary className="w-fit cursor-pointer rounded-sm text-muted-foreground underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-ring">
        {AUDIT_WORDS.details}
      </summary>
      <dl className="mt-2 grid gap-2 rounded-md border bg-muted/40 p-2">
        <div className="grid gap-0.5">
          <dt className="text-muted-foreground">{row.actionLabel}</dt>
          <dd>
            <code className="[overflow-wrap:anywhere]">{row.action}</code>
          </dd>
        </div>
        {row.target && (
          <div className="grid gap-0.5">
            <dt className="text-muted-foreground">{AUDIT_WORDS.target}</dt>
            <dd>
              <code className="[overflow-wrap:anywhere]">
                {row.target.type} {row.target.id}
              </code>
            </dd>
          </div>
        )}
        {(["before", "after"] as const).map((side) => (
          <div key={side} className="grid gap-0.5">
            <dt className="text-muted-foreground">{AUDIT_WORDS[side]}</dt>
            <dd>
              <pre className="font-mono whitespace-pre-wrap [overflow-wrap:anywhere]">{rawValue(row[side])}</pre>
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/**
 * The audit log, newest first: each entry as a sentence, with what was recorded one click away. On
 * a phone the table keeps one column, the entry, which carries when and who (and from which IP
 * address) beneath it; wider screens give when and who their own columns.
 */
export function AuditTable({ rows }: { rows: AuditRow[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead className="hidden sm:table-cell">When</TableHead>
          <TableHead>What happened</TableHead>
          <TableHead className="hidden min-w-44 md:table-cell">Actor</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.id} data-audit-id={row.id} data-action={row.action} className="align-top">
            <TableCell className="hidden align-top text-xs whitespace-nowrap text-muted-foreground sm:table-cell">
              <time dateTime={row.at}>{formatDateTime(row.at)}</time>
            </TableCell>
            <TableCell className="min-w-0 align-top whitespace-normal">
              <span className="grid gap-1">
                <span className="[overflow-wrap:anywhere]" data-testid="audit-sentence">
                  {row.sentence}
                </span>
                <span className="grid gap-0.5 text-xs text-muted-foreground md:hidden">
                  <time dateTime={row.at} className="sm:hidden">
                    {formatDateTime(row.at)}
                  </time>
                  <span className="[overflow-wrap:anywhere]">
                    {ACTOR_KIND_WORDS[row.actor.kind]}
                    {row.address && ` · ${row.address}`}
                  </span>
                </span>
                <Details row={row} />
              </span>
            </TableCell>
            <TableCell className="hidden align-top md:table-cell">
              <span className="grid gap-1">
                <span className="[overflow-wrap:anywhere]">{row.actor.label}</span>
                <Badge variant="neutral" className="w-fit">
                  {ACTOR_KIND_WORDS[row.actor.kind]}
                </Badge>
                {row.address && (
                  <span className="font-mono text-xs text-muted-foreground">
                    <span className="sr-only">IP address </span>
                    {row.address}
                  </span>
                )}
              </span>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
