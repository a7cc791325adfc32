/**
 * The server's log: one line per request and a line for each event a team running it needs to see (the
 * database lost and back, workspaces created and removed, replicas' notifications lagging), written by
 * pino. JSON lines (pino's own format) unless asked for `pretty` (pino-pretty), which is the default on a
 * terminal. Nothing logged carries a token, a password or a request body: the fields are chosen here and
 * in `observe.ts`, never a request's headers or body.
 */
import pino from "pino";
import type { LogFormat } from "../model.ts";

/** What the sandbox logs through: a pino logger, or anything with pino's `info`, `warn` and `error`. */
export type SandboxLogger = Pick<pino.Logger, "info" | "warn" | "error">;

/** A logger that writes nothing: `createSandbox` in process stays quiet unless it is given a logger. */
export const silentLogger: SandboxLogger = pino({ enabled: false });

/**
 * How the JSON lines to a file descriptor are batched (our choice): written once 4 KiB are queued, and at the
 * latest 100 ms after a line, and when the process exits.
 */
export const logBatches = { minLength: 4096, periodicFlush: 100 } as const;

/** The batching destinations made here, each written out by `flushLogs` (and so when the process exits). */
const batching = new Set<pino.DestinationStream & { flushSync(): void }>();
let flushesOnExit = false;

/** Writes every line the batching loggers hold, synchronously: before a line written around pino (the ready line), and at exit. */
export function flushLogs(): void {
  for (const destination of batching) destination.flushSync();
}

/** The `time` field of a line (ISO 8601, as pino's `isoTime`), made once per millisecond: a busy sandbox logs many lines in one. */
let lastTime = { ms: Number.NaN, field: "" };
function isoTimeOfMillisecond(): string {
  const ms = Date.now();
  if (ms !== lastTime.ms) lastTime = { ms, field: `,"time":"${new Date(ms).toISOString()}"` };
  return lastTime.field;
}

/**
 * The server's logger, writing to `stream` (the process's stdout): JSON lines, or pino-pretty's lines for
 * `pretty`. Without a format, `pretty` on a terminal and `json` otherwise.
 *
 * JSON lines to a file descriptor (a pipe, a file: the output of a server run by a machine) go through
 * pino's own destination (sonic-boom), written synchronously in batches (see `logBatches`): a busy sandbox
 * writes one chunk per dozen lines instead of a write per line, and holds no line in memory past a write
 * (asynchronous writes kept lines alive long enough to cost major garbage collections). Call `flushLogs`
 * before writing to the stream around the logger.
 */
export async function createLogger(stream: NodeJS.WritableStream & { isTTY?: boolean; fd?: number | null }, format?: LogFormat): Promise<pino.Logger> {
  const chosen = format ?? (stream.isTTY ? "pretty" : "json");
  // pino's JSON lines, with the level as its name and the time as ISO 8601 (see the README's "Logs").
  const options: pino.LoggerOptions = {
    name: "bot-conversation-sandbox",
    timestamp: isoTimeOfMillisecond,
    formatters: { level: (label) => ({ level: label }) },
  };
  if (chosen === "json") {
    if (typeof stream.fd !== "number" || stream.isTTY) return pino(options, stream);
    const destination = pino.destination({ dest: stream.fd, sync: true, ...logBatches });
    batching.add(destination);
    destination.on("close", () => batching.delete(destination));
    if (!flushesOnExit) {
      flushesOnExit = true;
      process.once("exit", flushLogs);
    }
    return pino(options, destination);
  }
  // Loaded only for a person's terminal: written as it comes, one line at a time.
  const { default: pretty } = await import("pino-pretty");
  return pino(options, pretty({ destination: stream, sync: true, colorize: Boolean(stream.isTTY), ignore: "pid,hostname,name", singleLine: true }));
}
