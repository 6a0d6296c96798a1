import type { NextRequest } from "next/server";
import type { z } from "zod";
import { commonRefusal, type ErrorDetail } from "../../base/errors";

const invalidRequest = (message: string, details?: ErrorDetail[]) => commonRefusal("VALIDATION_ERROR", "invalid-request", message, details);

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a JSON body of at most 64 KB and validates it. Bad JSON, a body that is not an object,
 * an oversize body or a field of the wrong type → VALIDATION_ERROR naming the field.
 */
export async function readJson<S extends z.ZodType>(req: NextRequest | Request, schema: S): Promise<z.output<S>> {
  return parseWith(schema, await readJsonObject(req));
}

/** The body as a plain JSON object (an empty body is {}), before any schema; `maxBytes` for the few routes that take more (a payout batch). */
export async function readJsonObject(req: NextRequest | Request, maxBytes = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  const raw = await readLimitedText(req, maxBytes);
  let value: unknown;
  if (raw.trim() === "") {
    value = {};
  } else {
    try {
      value = JSON.parse(raw);
    } catch {
      throw invalidRequest("request body is not valid JSON");
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalidRequest("request body must be a JSON object");
  }
  return value as Record<string, unknown>;
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const nul = nulPath(value);
  if (nul !== null)
    throw invalidRequest(`${nul || "the request"} must not contain a NUL character`, [
      { path: nul || undefined, message: "must not contain a NUL character" },
    ]);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || undefined,
    message: issue.message,
  }));
  // biome-ignore lint/style/noNonNullAssertion: zod reports at least one issue for every failed parse, and details has one entry per issue
  const first = details[0]!;
  const message = first.path && !first.message.startsWith(first.path) ? `${first.path}: ${first.message}` : first.message;
  throw invalidRequest(message, details);
}

async function readLimitedText(req: Request, maxBytes: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
}

function tooLarge(maxBytes: number) {
  return invalidRequest(`request body is larger than ${maxBytes / 1024} KB`);
}

/**
 * Where a value holds a NUL character (in a string or a key), as a dotted path ("" for the value
 * itself), or null. PostgreSQL's text and jsonb refuse it: caught here, it is a clear
 * VALIDATION_ERROR that changes nothing instead of a database error.
 */
export function nulPath(value: unknown, path = "", depth = 0): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (typeof value !== "object" || value === null || depth > 32) return null;
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes("\u0000")) return at;
    const found = nulPath(inner, at, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
