import pino from "pino";

/**
 * One structured JSON logger. Secrets are redacted by key wherever they appear, so a careless
 * `log.info({ body })` cannot leak a password, API key, mnemonic or private key.
 */
const REDACTED_KEYS = [
  "password",
  "passwordHash",
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
    redact: {
      paths: [...REDACTED_KEYS, ...REDACTED_KEYS.map((k) => `*.${k}`), ...REDACTED_KEYS.map((k) => `*.*.${k}`)].map(
        (p) => (p.includes("-") ? p.replace(/(^|\.)([^.]*-[^.]*)/, '$1["$2"]') : p),
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
