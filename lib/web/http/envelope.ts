import { NextResponse } from "next/server";
import { AppError, type ErrorDetail } from "../../base/errors";
import { log } from "../../base/log";

export type Envelope<T> =
  | { success: true; data: T }
  | { success: false; error: { code: string; message: string; reason?: string; details?: ErrorDetail[] } };

export function ok<T>(data: T, status = 200, headers?: HeadersInit): NextResponse<Envelope<T>> {
  return NextResponse.json({ success: true as const, data }, { status, headers });
}

/** Any thrown value → the error envelope; only AppError messages reach the client. */
export function errorResponse(error: unknown, requestId?: string): NextResponse<Envelope<never>> {
  if (error instanceof AppError) {
    const body = {
      code: error.code,
      message: error.message,
      ...(error.reason ? { reason: error.reason } : {}),
      ...(error.details ? { details: error.details } : {}),
    };
    return NextResponse.json({ success: false as const, error: body }, { status: error.status, headers: error.headers });
  }
  log.error({ err: error, requestId }, "unhandled error");
  return NextResponse.json({ success: false as const, error: { code: "INTERNAL_ERROR", message: "internal error" } }, { status: 500 });
}
