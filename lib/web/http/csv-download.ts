/** A dashboard export's response: streamed CSV, saved under `<prefix>-<today>.csv`, never cached or held back by a proxy. */
export function csvDownload(body: ReadableStream<Uint8Array>, prefix: string): Response {
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${prefix}-${stamp}.csv"`,
      "cache-control": "no-store",
      // nginx would otherwise buffer the stream, and the progress on the page would stand still.
      "x-accel-buffering": "no",
    },
  });
}
