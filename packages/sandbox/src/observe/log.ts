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
 * The server's logger, writing to `stream` (the process's stdout): JSON lines, or pino-pretty's lines for
 * `pretty`. Without a format, `pretty` on a terminal and `json` otherwise.
 */
export async function createLogger(stream: NodeJS.WritableStream & { isTTY?: boolean }, format?: LogFormat): Promise<SandboxLogger> {
  const chosen = format ?? (stream.isTTY ? "pretty" : "json");
  // pino's JSON lines, with the level as its name and the time as ISO 8601 (see the README's "Logs").
  const options: pino.LoggerOptions = {
    name: "bot-conversation-sandbox",
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  if (chosen === "json") return pino(options, stream);
  // Loaded only for a person's terminal.
  const { default: pretty } = await import("pino-pretty");
  return pino(options, pretty({ destination: stream, sync: true, colorize: Boolean(stream.isTTY), ignore: "pid,hostname,name", singleLine: true }));
}
