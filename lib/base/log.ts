/**
 * One structured JSON logger. Secrets are redacted by key wherever they appear, so a careless
 * `log.info({ body })` cannot leak a password, API key, mnemonic or private key; logged errors
 * keep the node's words but lose URL paths and queries (RPC provider keys live there) and the
 * request bodies viem repeats in its messages.
 */

import pino from "pino";
import { errorText, redactUrls } from "./error-text";

const REDACTED_KEYS = [
  "password",
  "passwordHash",
  "totpSecret",
  "totpPendingSecret",
  "code",
  "codeHash",
  "apiKey",
  "key",
  "keyHash",
  "token",
  "secret",
  "mnemonic",
  "masterMnemonic",
  "privateKey",
  "authorization",
  "x-api-key",
  "cookie",
  "databaseUrl",
  "nextAuthSecret",
  "rawTx",
  "parameters",
];

const LOGGER_KEY = Symbol.for("bsc-pay.logger");
type LoggerHolder = { [LOGGER_KEY]?: pino.Logger };

function createLogger(): pino.Logger {
  return pino({
    level: process.env.LOG_LEVEL || (process.env.NODE_ENV === "test" ? "warn" : "info"),
    base: { service: "bsc-pay" },
    serializers: { err: serializeError },
    redact: {
      paths: [...REDACTED_KEYS, ...REDACTED_KEYS.map((k) => `*.${k}`), ...REDACTED_KEYS.map((k) => `*.*.${k}`)].map((p) =>
        p.includes("-") ? p.replace(/(^|\.)([^.]*-[^.]*)/, '$1["$2"]') : p,
      ),
      censor: "[redacted]",
    },
  });
}

export function getLogger(): pino.Logger {
  const holder = globalThis as LoggerHolder;
  holder[LOGGER_KEY] ??= createLogger();
  return holder[LOGGER_KEY];
}

export const log = getLogger();

export function serializeError(error: unknown) {
  if (!error || typeof error !== "object") return { message: redactUrls(String(error)) };
  const e = error as { name?: string; stack?: string };
  const stackFrames = (e.stack ?? "")
    .split("\n")
    .filter((line) => line.trimStart().startsWith("at "))
    .slice(0, 12);
  return { type: e.name, message: errorText(error), stack: redactUrls(stackFrames.join("\n")) };
}
