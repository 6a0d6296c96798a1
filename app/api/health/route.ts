import { NextResponse } from "next/server";
import { getHealth } from "@/lib/health";

export const dynamic = "force-dynamic";

/** GET /api/health (no auth): database, each network's head/cursor/lag, jobs mode. */
export async function GET() {
  const health = await getHealth();
  return NextResponse.json(health, {
    status: health.status === "error" ? 503 : 200,
    headers: { "cache-control": "no-store" },
  });
}
