import type { NextRequest } from "next/server";
import { getConfig } from "@/lib/base/config";
import { AppError } from "@/lib/base/errors";
import { currentMetrics } from "@/lib/ops/metrics/current-metrics";
import { ensureStarted } from "@/lib/ops/startup/startup";
import { errorResponse } from "@/lib/web/http/envelope";
import { metricsAccess } from "@/lib/web/http/metrics-access";

export const dynamic = "force-dynamic";

/** GET /api/metrics: Prometheus text format; bearer METRICS_TOKEN, or loopback clients when it is unset. */
export async function GET(req: NextRequest) {
  const access = metricsAccess(req.headers, getConfig().metricsToken);
  if (access === "unauthorized") {
    const res = errorResponse(new AppError("UNAUTHORIZED", "send the metrics token as Authorization: Bearer <METRICS_TOKEN>"));
    res.headers.set("www-authenticate", 'Bearer realm="metrics"');
    return res;
  }
  // No code of docs/design.md §5 means "forbidden" without leaking existence; 401 says what would let them in.
  if (access === "forbidden")
    return errorResponse(
      new AppError("UNAUTHORIZED", "metrics are served to loopback clients only; set METRICS_TOKEN to read them remotely"),
    );
  await ensureStarted();
  const { body, contentType } = await currentMetrics();
  return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
}
