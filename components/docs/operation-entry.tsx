import { Fragment } from "react";
import { Badge } from "@/components/ui/badge";
import type { IndexedOperation } from "@/lib/web/openapi/operation-index";
import { DOCS_WORDS } from "./words";

const METHOD_VARIANT = { GET: "success", POST: "neutral", PUT: "warning", PATCH: "warning", DELETE: "danger" } as const;

/** Markdown's `code` spans as <code>; the rest as the text it is. */
export function WithCode({ text }: { text: string }) {
  return text.split("`").map((part, i) =>
    i % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, never reordered
      <code key={i} className="rounded bg-muted px-1 font-mono text-[0.85em]">
        {part}
      </code>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: as above
      <Fragment key={i}>{part}</Fragment>
    ),
  );
}

/** One operation of the index: method, path and summary; its description when opened. */
export function OperationEntry({ operation }: { operation: IndexedOperation }) {
  const variant = METHOD_VARIANT[operation.method as keyof typeof METHOD_VARIANT] ?? "outline";
  return (
    <li id={operation.id} className="scroll-mt-20">
      <details className="group rounded-lg border bg-card text-card-foreground">
        <summary className="flex cursor-pointer list-none flex-col gap-1 rounded-lg px-4 py-3 hover:bg-accent/50 focus-visible:outline-2 focus-visible:outline-ring sm:flex-row sm:items-baseline sm:gap-3 [&::-webkit-details-marker]:hidden">
          <span className="flex min-w-0 items-baseline gap-2 sm:w-1/2 sm:shrink-0">
            <Badge variant={variant} className="w-16 justify-center font-mono">
              {operation.method}
            </Badge>
            <code className="min-w-0 font-mono text-sm break-all">
              {operation.path}
              {operation.webhook && <span className="font-sans text-muted-foreground"> {DOCS_WORDS.webhookPath}</span>}
            </code>
          </span>
          <span className="text-sm font-medium">{operation.summary}</span>
        </summary>
        {operation.description && (
          <p className="border-t px-4 py-3 text-sm leading-relaxed text-muted-foreground break-words">
            <WithCode text={operation.description} />
          </p>
        )}
      </details>
    </li>
  );
}
