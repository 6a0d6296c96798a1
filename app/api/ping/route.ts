import { NextResponse } from "next/server";

export const dynamic = "force-dynamic";

/** GET /api/ping: liveness only (no database, no chain); also the bare baseline of bench/api.ts. */
export function GET() {
  return NextResponse.json({ ok: true });
}
