"use client";

import { Download, Loader2, X } from "lucide-react";
import { type MouseEvent, useEffect, useRef, useState } from "react";
import { Button, buttonVariants } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

type ExportState =
  | { kind: "idle"; message: string }
  | { kind: "running"; rows: number; bytes: number; startedAt: number }
  | { kind: "failed"; message: string };

const LF = 10;
/** Redraw the counts at most this often: a big export brings hundreds of chunks a second. */
const REDRAW_MS = 150;

/**
 * A CSV download that says how far it has come. Without JavaScript it is a plain download link;
 * with it, the file is fetched as a stream (rows and MB counted as they arrive, a Cancel that
 * stops the server's cursor too) and saved once complete. Screen readers hear the start and the
 * end, not every count.
 */
export function ExportButton({ href, label = "Export CSV", fallbackName }: { href: string; label?: string; fallbackName: string }) {
  const [state, setState] = useState<ExportState>({ kind: "idle", message: "" });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const start = async (event: MouseEvent<HTMLAnchorElement>) => {
    // A new tab, a "save link as" or a modified click keep the browser's own download.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (state.kind === "running") return;
    const controller = new AbortController();
    abort.current = controller;
    const startedAt = Date.now();
    setState({ kind: "running", rows: 0, bytes: 0, startedAt });
    try {
      const res = await fetch(href, { signal: controller.signal, headers: { accept: "text/csv" } });
      if (!res.ok || !res.body) {
        const reason = res.status === 401 ? "your session has ended: sign in again" : (await res.text()).slice(0, 200);
        setState({ kind: "failed", message: `Export failed: ${reason || `the server answered ${res.status}`}` });
        return;
      }
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      const reader = res.body.getReader();
      let lines = 0;
      let bytes = 0;
      let drawnAt = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        bytes += value.byteLength;
        for (let i = 0; i < value.length; i++) if (value[i] === LF) lines++;
        if (Date.now() - drawnAt > REDRAW_MS) {
          drawnAt = Date.now();
          setState({ kind: "running", rows: Math.max(0, lines - 1), bytes, startedAt });
        }
      }
      save(new Blob(chunks, { type: "text/csv;charset=utf-8" }), fileNameOf(res) ?? fallbackName);
      const rows = Math.max(0, lines - 1);
      setState({ kind: "idle", message: `Export complete: ${rows.toLocaleString("en")} ${rows === 1 ? "row" : "rows"} saved.` });
    } catch (error) {
      setState(
        controller.signal.aborted
          ? { kind: "idle", message: "Export cancelled." }
          : { kind: "failed", message: `Export failed: ${(error as Error).message || "the connection broke"}. Try again.` },
      );
    } finally {
      if (abort.current === controller) abort.current = null;
    }
  };

  const running = state.kind === "running";
  const announcement = running ? "Export started." : state.message;
  return (
    // The progress and the outcome open below the button, over the page (at the foot of a phone's
    // screen): the header keeps its layout.
    <div className="relative">
      <a
        href={href}
        download
        onClick={start}
        aria-disabled={running || undefined}
        className={buttonVariants({ variant: "outline", className: running ? "pointer-events-none opacity-60" : undefined })}
      >
        {running ? <Loader2 aria-hidden className="animate-spin motion-reduce:animate-none" /> : <Download aria-hidden />} {label}
      </a>
      {running && (
        <div
          className="fixed inset-x-4 bottom-4 z-50 flex items-center gap-3 rounded-md border bg-card px-3 py-2 text-sm shadow-md sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:bottom-auto sm:z-20 sm:mt-2 sm:w-72"
          data-testid="export-progress"
        >
          <p className="min-w-0 flex-1 tabular-nums">
            <span className="block font-medium">Exporting…</span>
            <span className="block text-muted-foreground">
              {state.rows.toLocaleString("en")} rows · {(state.bytes / 1_000_000).toFixed(1)} MB
            </span>
          </p>
          <Button type="button" variant="ghost" size="sm" onClick={() => abort.current?.abort()}>
            <X aria-hidden /> Cancel
          </Button>
        </div>
      )}
      <p
        aria-live="polite"
        role="status"
        className={
          running || !announcement
            ? "sr-only"
            : cn(
                "fixed inset-x-4 bottom-4 z-50 rounded-md border bg-card px-3 py-2 text-sm shadow-md sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:bottom-auto sm:z-20 sm:mt-1 sm:w-max sm:max-w-80 sm:border-0 sm:bg-background/95 sm:px-1 sm:py-0 sm:text-right sm:shadow-none",
                state.kind === "failed" ? "text-destructive" : "text-muted-foreground",
              )
        }
      >
        {state.kind === "failed" ? state.message : announcement}
      </p>
    </div>
  );
}

function fileNameOf(res: Response): string | null {
  return /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? null;
}

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by the next task; keep the URL a little longer for slow ones.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
