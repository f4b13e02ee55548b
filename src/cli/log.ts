/**
 * The server log (`--log-level`, `--quiet`): pino, pretty on a terminal and JSON lines otherwise.
 * What goes in it passes the journal's redaction rule first (src/engine/redact.ts). JSON lines are
 * written asynchronously: lines that come while a write is under way go out together in the next one
 * (a synchronous write per call cost a GET 7% of its time), and whatever is pending is written
 * before the process exits.
 */
import { createRequire } from 'node:module';
import pino from 'pino';
import { wallClock, type Logger } from '../deps.js';
import { redactBody, redactText } from '../engine/redact.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A logger writing to standard output (a pretty one on a terminal); `level` filters. */
export function pinoLogger(level: LogLevel, opts: { pretty?: boolean } = {}): Logger {
  const usePretty = opts.pretty ?? process.stdout.isTTY;
  // pino-pretty is loaded for a terminal only: JSON needs none of it
  const pretty = usePretty ? (createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty')) : null;
  const log = pretty
    ? pino(
        { level, timestamp: () => `,"time":${wallClock()}` },
        pretty({
          colorize: true,
          sync: true,
          singleLine: true,
          ignore: 'pid,hostname',
          translateTime: 'SYS:HH:MM:ss.l',
        }),
      )
    : pino({ level, base: undefined, timestamp: () => `,"time":${wallClock()}` }, pino.destination({ sync: false }));
  return {
    info: (message, fields) => log.info(fields ? (redactBody(fields) as object) : {}, redactText(message)),
    warn: (message, fields) => log.warn(fields ? (redactBody(fields) as object) : {}, redactText(message)),
  };
}
