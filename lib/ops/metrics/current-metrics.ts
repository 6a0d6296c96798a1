/** GET /api/metrics's body, read from the process's own database (the route holds no database handle). */
import { getDb } from "../../db";
import { renderMetrics } from "./collect";

/** Metrics in the Prometheus text format, levels read now. */
export async function currentMetrics(): Promise<{ body: string; contentType: string }> {
  return renderMetrics(await getDb());
}
