/** How bench:history times one call and prints the verdicts. */
export type Runner = (i: number) => Promise<Response>;

export interface Call {
  name: string;
  /** ratio: ≤ max(2 × small p95, 100 ms); deep: the API's deepest page, ≤ 300 ms; csv: ≤ 2 s to the last byte, first byte < 1 s. */
  rule: "ratio" | "deep" | "csv";
  run?: Runner;
  /** Finds what the call needs first (the last page's number, a cursor) and answers the runner. */
  setup?: () => Promise<Runner>;
}

export interface Measured {
  rule: Call["rule"];
  p50: number;
  p95: number;
  /** CSV: time to the first body byte, and what came. */
  firstByte?: { p50: number; p95: number };
  rows?: number;
  bytes?: number;
  samples: number;
  note?: string;
}

const MAX_SAMPLES = { ratio: 30, deep: 20, csv: 5 } as const;
const MIN_SAMPLES = 3;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

interface Timed {
  ms: number;
  firstByteMs: number;
  bytes: number;
  lines: number;
}

/** One request read to its last byte; a status other than 200 (201 for a create) is an error (a redirect to /login included). */
async function timeOnce(run: Runner, i: number): Promise<Timed> {
  const started = performance.now();
  const res = await run(i);
  if (res.status !== 200 && res.status !== 201) {
    const text = await res.text();
    throw new Error(`HTTP ${res.status}: ${text.slice(0, 120).replace(/\s+/g, " ")}`);
  }
  let firstByteMs = Number.NaN;
  let bytes = 0;
  let lines = 0;
  const reader = res.body?.getReader();
  for (;;) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) break;
    if (Number.isNaN(firstByteMs)) firstByteMs = performance.now() - started;
    bytes += chunk.value.byteLength;
    for (const byte of chunk.value) if (byte === 10) lines++;
  }
  return { ms: performance.now() - started, firstByteMs, bytes, lines };
}

export async function measureCall(call: Call, budgetMs: number): Promise<Measured> {
  let run: Runner;
  let minSamples = MIN_SAMPLES;
  try {
    run = call.run ?? (await (call.setup as () => Promise<Runner>)());
    const warm = await timeOnce(run, 0); // warm-up: compiled routes, prepared statements, caches
    // A call slower than the whole budget (a search that scans a million rows) is timed once more, not three times.
    minSamples = warm.ms > budgetMs ? 1 : MIN_SAMPLES;
  } catch (error) {
    return { rule: call.rule, p50: Number.NaN, p95: Number.NaN, samples: 0, note: (error as Error).message };
  }
  const times: Timed[] = [];
  const started = performance.now();
  try {
    for (let i = 1; i <= MAX_SAMPLES[call.rule]; i++) {
      if (times.length >= minSamples && performance.now() - started > budgetMs) break;
      times.push(await timeOnce(run, i));
    }
  } catch (error) {
    return { rule: call.rule, p50: Number.NaN, p95: Number.NaN, samples: times.length, note: (error as Error).message };
  }
  const sorted = times.map((t) => t.ms).sort((a, b) => a - b);
  const firsts = times.map((t) => t.firstByteMs).sort((a, b) => a - b);
  const last = times.at(-1);
  return {
    rule: call.rule,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    samples: times.length,
    ...(call.rule === "csv" && last
      ? { firstByte: { p50: percentile(firsts, 50), p95: percentile(firsts, 95) }, rows: Math.max(0, last.lines - 1), bytes: last.bytes }
      : {}),
  };
}

interface Verdict {
  limit: number;
  pass: boolean;
}

function verdict(rule: Call["rule"], small: Measured | undefined, big: Measured): Verdict {
  if (rule === "deep") return { limit: 300, pass: big.p95 <= 300 };
  if (rule === "csv") return { limit: 2000, pass: big.p95 <= 2000 };
  const limit = Math.max(2 * (small?.p95 ?? Number.NaN), 100);
  return { limit, pass: big.p95 <= limit };
}

const ms = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? "—" : n.toFixed(0));

/** The table: small vs big p50/p95, their ratio, the limit and PASS/FAIL per call. */
export function printTable(results: Map<string, Measured[]>, small: number, big: number): void {
  const head = `${"call".padEnd(46)} ${`${small} p50`.padStart(9)} ${`${small} p95`.padStart(9)} ${`${big} p50`.padStart(12)} ${`${big} p95`.padStart(12)} ${"ratio".padStart(6)} ${"limit".padStart(6)}  verdict`;
  console.log(`\nms, read to the last byte; ratio = big p95 / small p95\n\n${head}\n${"-".repeat(head.length)}`);
  let failures = 0;
  for (const [name, [smallRun, bigRun]] of results) {
    if (!bigRun) continue;
    const rule = bigRun.rule;
    const { limit, pass } = verdict(rule, smallRun, bigRun);
    const ratio = smallRun && smallRun.p95 > 0 ? (bigRun.p95 / smallRun.p95).toFixed(1) : "—";
    const errored = Number.isNaN(bigRun.p95);
    if (!pass || errored) failures++;
    console.log(
      `${name.padEnd(46)} ${ms(smallRun?.p50).padStart(9)} ${ms(smallRun?.p95).padStart(9)} ${ms(bigRun.p50).padStart(12)} ${ms(bigRun.p95).padStart(12)} ${ratio.padStart(6)} ${ms(limit).padStart(6)}  ${pass && !errored ? "PASS" : "FAIL"}${bigRun.note ? ` (${bigRun.note})` : ""}`,
    );
    if (rule === "csv" && bigRun.firstByte) {
      const firstPass = bigRun.firstByte.p95 < 1000;
      if (!firstPass) failures++;
      console.log(
        `${"  first byte".padEnd(46)} ${ms(smallRun?.firstByte?.p50).padStart(9)} ${ms(smallRun?.firstByte?.p95).padStart(9)} ${ms(bigRun.firstByte.p50).padStart(12)} ${ms(bigRun.firstByte.p95).padStart(12)} ${"".padStart(6)} ${"1000".padStart(6)}  ${firstPass ? "PASS" : "FAIL"}`,
      );
      const rate = bigRun.rows && bigRun.p50 > 0 ? Math.round(bigRun.rows / (bigRun.p50 / 1000)) : 0;
      console.log(
        `  ${(bigRun.rows ?? 0).toLocaleString("en")} rows, ${((bigRun.bytes ?? 0) / 1e6).toFixed(1)} MB, at p50: ${rate.toLocaleString("en")} rows/s (goal ≥ 50,000)`,
      );
    }
  }
  console.log(`\n${failures === 0 ? "PASS: every line within its limit" : `FAIL: ${failures} line(s) over their limit`}`);
}
