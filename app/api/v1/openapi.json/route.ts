import { NextResponse } from "next/server";
import { openApiDocument } from "@/lib/web/openapi/document";

/** GET /api/v1/openapi.json (no auth): generated from the request schemas. */
export function GET() {
  return NextResponse.json(openApiDocument(), { headers: { "access-control-allow-origin": "*" } });
}
