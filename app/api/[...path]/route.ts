import { NextResponse } from "next/server";

/** Every unknown path under /api answers the JSON envelope, never Next's HTML page. */
function notFound(req: Request): Response {
  const path = new URL(req.url).pathname;
  return NextResponse.json(
    { success: false, error: { code: "NOT_FOUND", message: `no API endpoint at ${req.method} ${path}` } },
    { status: 404 },
  );
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const HEAD = notFound;
export const OPTIONS = notFound;
