/**
 * The server's log: one line per request and a line for each event a team running it needs to see (the
 * database lost and back, workspaces created and removed, replicas' notifications lagging), written by
 * pino. JSON lines (pino's own format) unless asked for `pretty` (pino-pretty), which is the default on a
 * terminal. Nothing logged carries a token, a password or a request body: the fields are chosen here and
 * in `observe.ts`, never a request's headers or body.
 */
import { once } from "node:events";
import pino from "pino";
import type { LogFormat } from "../model.ts";

/** What the sandbox logs through: a pino logger, or anything with pino's `info`, `warn` and `error`. */
export type SandboxLogger = Pick<pino.Logger, "info" | "warn" | "error">;

/** A logger that writes nothing: `createSandbox` in process stays quiet unless it is given a logger. */
export const silentLogger: SandboxLogger = pino({ enabled: false });

/**
 * How the JSON lines to a file descriptor are batched (our choice): written once 16 KiB are queued (a write to a pipe wakes its reader: fewer, larger writes cost the sandbox less), and at the
 * latest 100 ms after a line, and when the process exits.
 */
export const logBatches = { minLength: 16 * 1024, periodicFlush: 100 } as const;

/**
 * How much of the log waits in memory, at most, while its reader does not read (our choice): 1 MiB, about 3,000
 * request lines. Past it, lines are dropped and counted (`sandbox_log_lines_dropped_total`), never waited for.
 * A pipe that is full is tried again every `retryMs`; at exit, the reader has `exitWaitMs` to take what is left.
 */
export const logBuffer = { maxBytes: 1024 * 1024, retryMs: 50, exitWaitMs: 1000 } as const;

/** The message of the line that says how many lines were dropped, written once the reader has caught up. */
export const droppedLinesMessage = "log lines dropped: the log's reader fell behind";

/** What a destination of the batched JSON lines must do: pino's own (sonic-boom), non-blocking. */
type Destination = pino.DestinationStream & { flushSync(): void } & NodeJS.EventEmitter;

/**
 * Lines gathered into chunks of at least `logBatches.minLength` characters, each handed whole to pino's own
 * destination (sonic-boom). sonic-boom can batch by itself, but it measures its whole buffer
 * (`Buffer.byteLength`) again at every line: a busy sandbox spent more on that than on making the line. A line
 * waits at most `logBatches.periodicFlush` milliseconds.
 *
 * The destination never waits for its reader: a write to a full pipe (non-blocking, as Node opens a pipe on
 * stdout) answers `EAGAIN` at once and the chunk stays in sonic-boom's buffer, bounded by `logBuffer.maxBytes`,
 * tried again `logBuffer.retryMs` later; a chunk that does not fit is dropped and its lines counted. Once the
 * reader has taken everything, one line says how many were dropped. (sonic-boom's own retry of `EAGAIN` sleeps
 * the thread 100 ms per try, which held every request while the reader did not read.)
 */
class LineBatches {
  readonly #destination: Destination;
  #lines: string[] = [];
  #length = 0;
  #timer: NodeJS.Timeout | undefined;
  #retry: NodeJS.Timeout | undefined;
  /** Lines dropped since this destination was made, and those of them a line has already reported. */
  dropped = 0;
  #reported = 0;
  /** Whether a write failed for another reason than a full pipe (the reader gone): lines are dropped from then on. */
  #broken = false;
  /** Lines handed to the destination since it was last empty (about: those it may still hold). */
  #held = 0;
  /** Where the line about dropped lines is logged: the logger writing here, once made. */
  logger: pino.Logger | undefined;

  constructor(destination: Destination) {
    this.#destination = destination;
    destination.on("drop", (chunk: string) => {
      const lines = countLines(chunk);
      this.dropped += lines;
      this.#held -= lines;
    });
    // A full pipe (EAGAIN): the chunk waits, bounded, and is tried again later. A reader gone (EPIPE, or any
    // other failure): what waits and whatever comes later is dropped and counted, never tried again.
    destination.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EAGAIN" && error.code !== "EBUSY") {
        this.#broken = true;
        this.dropped += this.#held;
        this.#held = 0;
        return;
      }
      this.#retry ??= setTimeout(() => {
        this.#retry = undefined;
        // An empty write makes sonic-boom try what it holds again.
        this.#destination.write("");
      }, logBuffer.retryMs).unref();
    });
    destination.on("drain", () => {
      this.#held = 0;
      const missing = this.dropped - this.#reported;
      if (missing === 0 || this.logger === undefined) return;
      this.#reported = this.dropped;
      this.logger.warn({ droppedLines: missing }, droppedLinesMessage);
    });
  }

  write(line: string): boolean {
    this.#lines.push(line);
    this.#length += line.length;
    if (this.#length >= logBatches.minLength) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), logBatches.periodicFlush).unref();
    return true;
  }

  /** Hands the lines gathered to the destination, which writes them at once (or keeps them while the pipe is full). */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#lines.length === 0) return;
    const chunk = this.#lines.join("");
    const lines = this.#lines.length;
    this.#lines = [];
    this.#length = 0;
    if (this.#broken) {
      this.dropped += lines;
      return;
    }
    this.#held += lines;
    this.#destination.write(chunk);
  }

  /**
   * `flush`, then whatever the destination still holds, in order; a reader that takes nothing for
   * `logBuffer.exitWaitMs` loses the rest (counted), so an exit never hangs on it.
   */
  flushSync(): void {
    this.flush();
    // sonic-boom's flushSync would retry any other error forever.
    if (this.#broken) return;
    exitDeadline = performance.now() + logBuffer.exitWaitMs;
    try {
      this.#destination.flushSync();
    } catch {
      // The reader took nothing in time (or is gone): what is left is not written.
    } finally {
      exitDeadline = undefined;
    }
  }
}

/** The lines of a chunk of JSON lines. */
function countLines(chunk: string): number {
  let lines = 0;
  for (let index = chunk.indexOf("\n"); index !== -1; index = chunk.indexOf("\n", index + 1)) lines++;
  return lines;
}

/** While `flushSync` writes what is left: until when a full pipe is waited for. Else never (the line stays buffered). */
let exitDeadline: number | undefined;
const retryWhileFlushing = () => exitDeadline !== undefined && performance.now() < exitDeadline;

/** The batching destinations made here, each written out by `flushLogs` (and so when the process exits). */
const batching = new Set<LineBatches>();
/** The batching destination of each logger made by `createLogger`, for the count of its dropped lines. */
const batchingOf = new WeakMap<object, LineBatches>();
let flushesOnExit = false;

/** Writes every line the batching loggers hold, synchronously: before a line written around pino (the ready line), and at exit. */
export function flushLogs(): void {
  for (const destination of batching) destination.flushSync();
}

/** The lines a logger made by `createLogger` dropped because its reader fell behind (0 for any other logger). */
export function droppedLogLines(logger: object): number {
  return batchingOf.get(logger)?.dropped ?? 0;
}

/** What a request's line says (see the README's "Logs and metrics"), in the order its fields are written. */
export interface RequestLine {
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  readonly operation: string;
  /** Absent from the line when `undefined` (a token of no workspace). */
  readonly workspace: string | undefined;
  readonly status: number;
  /** Written rounded to the microsecond. */
  readonly durationMs: number;
}

/** The message of a request's line. */
export const requestMessage = "request";

/** The request line's writer of each JSON logger made by `createLogger` (and of a held one), prepared once. */
const preparedLines = new WeakMap<object, (line: RequestLine) => void>();

/**
 * How a request's line is written through `logger`: for a JSON logger made by `createLogger`, the line's text is
 * put together here from pino's own parts of it (its level's opening, the `time`, the process's bindings, its end)
 * and handed to the logger's destination, the very line `logger.info(fields, "request")` writes without pino's
 * walk over the fields; for any other logger (a pretty one, one of the caller's), `logger.info`.
 */
export function requestLineWriter(logger: SandboxLogger): (line: RequestLine) => void {
  return preparedLines.get(logger) ?? ((line) => logger.info({ ...line, durationMs: roundedDuration(line.durationMs) }, requestMessage));
}

const roundedDuration = (durationMs: number) => Math.round(durationMs * 1000) / 1000;

/** The characters JSON's quoting changes (a surrogate sends the string to `JSON.stringify`, which knows a lone one). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes.
const needsEscaping = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * A string as JSON quotes it (and pino writes it): a plain one (most paths, ids, names) between quotes as it is,
 * any other through `JSON.stringify` (which, called for every field, cost a third of a line).
 */
const quoted = (text: string) => (needsEscaping.test(text) ? JSON.stringify(text) : `"${text}"`);

/**
 * The request line's writer of a JSON logger whose lines go to `destination`: skipped while `info` is below the logger's
 * level. The fields from the method to the status are written once for the last request's values and kept: a busy
 * sandbox answers the same route, path and status again and again, so a line then quotes only its request id.
 */
function prepareRequestLine(logger: pino.Logger, destination: { write(text: string): unknown }): (line: RequestLine) => void {
  const parts = logger as unknown as Record<symbol, unknown>;
  const opening = (parts[pino.symbols.lsCacheSym] as Record<number, string>)[pino.levels.values["info"]!]!;
  const bindings = parts[pino.symbols.chindingsSym] as string;
  const end = parts[pino.symbols.endSym] as string;
  const infoLevel = pino.levels.values["info"]!;
  const message = `,"msg":${quoted(requestMessage)}${end}`;
  /** The last line's fields from the method to the status, and the text written for them (up to `"durationMs":`). */
  let last = { method: "", path: "", operation: "", workspace: undefined as string | undefined, status: Number.NaN, text: "" };
  const middleOf = (line: RequestLine) => {
    if (
      line.status === last.status &&
      line.path === last.path &&
      line.operation === last.operation &&
      line.method === last.method &&
      line.workspace === last.workspace
    )
      return last.text;
    const workspace = line.workspace === undefined ? "" : `,"workspace":${quoted(line.workspace)}`;
    const text = `,"method":${quoted(line.method)},"path":${quoted(line.path)},"operation":${quoted(line.operation)}${workspace},"status":${line.status},"durationMs":`;
    last = { method: line.method, path: line.path, operation: line.operation, workspace: line.workspace, status: line.status, text };
    return text;
  };
  return (line) => {
    if (logger.levelVal > infoLevel) return;
    destination.write(
      `${opening}${isoTimeOfMillisecond()}${bindings},"requestId":${quoted(line.requestId)}${middleOf(line)}${roundedDuration(line.durationMs)}${message}`,
    );
  };
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
 * pino's own destination (sonic-boom), written in batches (see `LineBatches`): a busy sandbox writes one chunk
 * per fifty lines instead of a write per line, each write taken by the pipe at once or kept (bounded) for a
 * later try, never waited for. Asynchronous writes (`sync: false`) would do the same from the thread pool, but
 * kept lines alive long enough to cost major garbage collections, and a write still in the pool at exit could
 * be lost or land after the lines written then. Call `flushLogs` before writing to the stream around the logger.
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
    // A file stream still opening (`fs.createWriteStream(path)`) gets its descriptor first, and so the batches.
    if (stream.fd === null && "pending" in stream && stream.pending === true) await once(stream, "open");
    if (typeof stream.fd !== "number" || stream.isTTY) {
      const logger = pino(options, stream);
      // A stream that routes by each line's level (pino's multistream) is told the level by pino itself: left to it.
      if ((stream as unknown as Record<symbol, unknown>)[pino.symbols.needsMetadataGsym] !== true)
        preparedLines.set(logger, prepareRequestLine(logger, stream));
      return logger;
    }
    // Written at once, never retried by sleeping (see `LineBatches`), and bounded in memory.
    const destination = pino.destination({ dest: stream.fd, sync: true, maxLength: logBuffer.maxBytes, retryEAGAIN: retryWhileFlushing });
    const batches = new LineBatches(destination);
    batching.add(batches);
    destination.on("close", () => batching.delete(batches));
    if (!flushesOnExit) {
      flushesOnExit = true;
      process.once("exit", flushLogs);
    }
    const logger = pino(options, batches);
    preparedLines.set(logger, prepareRequestLine(logger, batches));
    batches.logger = logger;
    batchingOf.set(logger, batches);
    return logger;
  }
  // Loaded only for a person's terminal: written as it comes, one line at a time.
  const { default: pretty } = await import("pino-pretty");
  return pino(options, pretty({ destination: stream, sync: true, colorize: Boolean(stream.isTTY), ignore: "pid,hostname,name", singleLine: true }));
}

/**
 * A logger whose lines wait until `release()`, then are written in order; from then on lines go straight through
 * (the command holds the lines logged while starting until after its ready line). Its dropped lines are the logger's.
 */
export function heldUntilReleased(logger: SandboxLogger): SandboxLogger & { release(): void } {
  let waiting: (() => void)[] | undefined = [];
  const level =
    (name: "info" | "warn" | "error"): SandboxLogger["info"] =>
    (...args: Parameters<SandboxLogger["info"]>) => {
      if (waiting === undefined) logger[name](...args);
      else waiting.push(() => logger[name](...args));
    };
  const held = {
    info: level("info"),
    warn: level("warn"),
    error: level("error"),
    release: () => {
      const lines = waiting ?? [];
      waiting = undefined;
      for (const line of lines) line();
    },
  };
  const batching = batchingOf.get(logger);
  if (batching !== undefined) batchingOf.set(held, batching);
  const prepared = preparedLines.get(logger);
  if (prepared !== undefined)
    preparedLines.set(held, (line) => {
      if (waiting === undefined) prepared(line);
      else waiting.push(() => prepared(line));
    });
  return held;
}
