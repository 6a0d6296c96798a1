/**
 * A dashboard export's response: streamed CSV, saved under `<prefix>-<today>.csv`, never cached or
 * held back by a proxy. Nor gzipped by this process (`no-transform` turns off `next start`'s
 * compression for it): a month of a big history is ~20 MB, and gzip and the browser's gunzip would
 * cost ~0.5 s of CPU on the process that also runs the engine — a reverse proxy in front (docs/
 * operating.md) compresses it on its own cores if the link is slow enough to want it.
 */
export function csvDownload(body: ReadableStream<Uint8Array>, prefix: string): Response {
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${prefix}-${stamp}.csv"`,
      "cache-control": "no-store, no-transform",
      // nginx would otherwise buffer the stream, and the progress on the page would stand still.
      "x-accel-buffering": "no",
    },
  });
}
