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

/**
 * Lines gathered into chunks of at least `logBatches.minLength` characters, each handed whole to pino's own
 * destination (sonic-boom), which writes it at once, synchronously. sonic-boom can batch by itself, but it
 * measures its whole buffer (`Buffer.byteLength`) again at every line: a busy sandbox spent more on that than
 * on making the line. A line waits at most `logBatches.periodicFlush` milliseconds.
 */
class LineBatches {
  readonly #destination: pino.DestinationStream & { flushSync(): void };
  #lines: string[] = [];
  #length = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(destination: pino.DestinationStream & { flushSync(): void }) {
    this.#destination = destination;
  }

  write(line: string): boolean {
    this.#lines.push(line);
    this.#length += line.length;
    if (this.#length >= logBatches.minLength) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), logBatches.periodicFlush).unref();
    return true;
  }

  /** Hands the lines gathered to the destination, which writes them at once. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#lines.length === 0) return;
    const chunk = this.#lines.join("");
    this.#lines = [];
    this.#length = 0;
    this.#destination.write(chunk);
  }

  /** `flush`, then whatever the destination still holds (nothing, unless a write met a full pipe). */
  flushSync(): void {
    this.flush();
    this.#destination.flushSync();
  }
}

/** The batching destinations made here, each written out by `flushLogs` (and so when the process exits). */
const batching = new Set<LineBatches>();
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
 * pino's own destination (sonic-boom), written synchronously in batches (see `LineBatches`): a busy sandbox
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
    const destination = pino.destination({ dest: stream.fd, sync: true });
    const batches = new LineBatches(destination);
    batching.add(batches);
    destination.on("close", () => batching.delete(batches));
    if (!flushesOnExit) {
      flushesOnExit = true;
      process.once("exit", flushLogs);
    }
    return pino(options, batches);
  }
  // Loaded only for a person's terminal: written as it comes, one line at a time.
  const { default: pretty } = await import("pino-pretty");
  return pino(options, pretty({ destination: stream, sync: true, colorize: Boolean(stream.isTTY), ignore: "pid,hostname,name", singleLine: true }));
}
