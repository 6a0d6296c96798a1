import { NextResponse } from "next/server";
import { getHealthCached } from "@/lib/ops/health/health";

export const dynamic = "force-dynamic";

/** GET /api/health (no auth): database, each network's head/cursor/lag, jobs mode; answered from a 2 s cache. */
export async function GET() {
  const health = await getHealthCached();
  return NextResponse.json(health, {
    status: health.status === "error" ? 503 : 200,
    headers: { "cache-control": "no-store" },
  });
}
