/**
 * `@bot-conversation/client/command-line`: what every command of the toolkit shares (`bot-conversation`
 * and its `check` and `sandbox`, and the `bot-conversation-sandbox` bin): the one exit-code table and
 * the one reading of the access token from `--token`, `--token-file` or `BOT_CONVERSATION_TOKEN`, and
 * the client's way of calling a route the service's description does not hold (the sandbox's control API).
 * Node.js only (it reads files); a subpath of its own, so the client's main entry does not carry it.
 */
/// <reference types="node" />
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { type BotConversationClientOptions, createCaller, type Run } from "./client.js";
import { tokenFromFile } from "./text.js";

export type { BodyCheck } from "./internal/call-options.js";
export type { Run };

/**
 * The exit codes of every command: done (for `check`, no new failure); the service refused or failed
 * (`check`: a new failure); bad usage, nothing sent (`check`: also an unusable server); the server's
 * rate limit kept the run from finishing within its bounds (`check` only); stopped by Ctrl-C.
 */
export const exitCodes = { ok: 0, failed: 1, usage: 2, incomplete: 3, interrupted: 130 } as const;

/**
 * Where a command reads and writes, and what stops it: the one type of every command of the toolkit
 * (`bot-conversation`'s own, `check`, `sandbox`), the GitHub CLI's `IOStreams`; tests pass their own streams.
 */
export interface CommandIo {
  /** Receives the results (a report, records, the help, a ready line). */
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Receives errors, notes, `--verbose` traces, a progress bar and prompts. */
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Read for a confirmation (a fire's); a terminal only when `isTTY`. */
  readonly stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** The environment: `BOT_CONVERSATION_BASE_URL`, `BOT_CONVERSATION_TOKEN`, each command's own variables. */
  readonly env: NodeJS.ProcessEnv;
  /** Aborted on Ctrl-C: the request in flight (or the run) stops. */
  readonly signal?: AbortSignal;
}

/** A mistake in the command line or the options, found before any request: exit code 2 (`exitCodes.usage`). The one class of every command. */
export class UsageError extends Error {
  override name = "UsageError";
}

export { portOf } from "./port.js";

/** The environment variable holding the access token. */
export const tokenVariable = "BOT_CONVERSATION_TOKEN";

/** The largest token file read, in bytes (our choice: a token is far shorter; a larger file is refused unread). */
export const maxTokenFileBytes = 4096;

/** The token flags every command that calls the service takes, as a command-line parser declares them. */
export const tokenFlags = [
  {
    flags: "--token <token>",
    description: `access token sent in X-Token, never printed (default: $${tokenVariable}; on the command line it is seen in shell history and ps: prefer --token-file or the variable)`,
  },
  {
    flags: "--token-file <path>",
    description: `read the access token from this regular file: the whole file, trimmed, one line, at most ${maxTokenFileBytes} bytes (wins over --token and $${tokenVariable})`,
  },
] as const;

/** The token options as a command's parser hands them over. */
export interface TokenFlags {
  /** `--token`. */
  readonly token?: string | undefined;
  /** `--token-file`. */
  readonly tokenFile?: string | undefined;
}

/** What a file that is not a regular file is, in words. */
function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return "a FIFO (a named pipe)";
  if (stats.isDirectory()) return "a directory";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

/**
 * The token in the file at `path`, read by the one rule (`tokenFromFile`: the whole file, trimmed, one
 * line) and bounded: only a regular file is read (a FIFO, a device or a directory is refused without
 * waiting on it, as it is opened non-blocking), and at most `maxTokenFileBytes` of it (a larger file is
 * refused). Every refusal is a `TypeError` naming `flag` and the path, never quoting the file.
 */
export function readTokenFile(path: string, flag = "--token-file"): string {
  const source = `${flag} ${path}`;
  const expected = `expected a regular file of at most ${maxTokenFileBytes} bytes holding the access token`;
  let descriptor: number;
  try {
    // Non-blocking: opening a FIFO with no writer would otherwise wait for one.
    descriptor = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new TypeError(`${source}: cannot read it (${(error as NodeJS.ErrnoException).code ?? "error"}); ${expected}`);
  }
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) throw new TypeError(`${source}: is ${kindOf(stats)}; ${expected}`);
    if (stats.size > maxTokenFileBytes) throw new TypeError(`${source}: holds ${stats.size} bytes; ${expected}`);
    // One byte more than the limit: a file that grew since fstat is refused too.
    const buffer = new Uint8Array(maxTokenFileBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(descriptor, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > maxTokenFileBytes) throw new TypeError(`${source}: holds more than ${maxTokenFileBytes} bytes; ${expected}`);
    return tokenFromFile(new TextDecoder().decode(buffer.subarray(0, length)), source);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * The access token of a command, read one way everywhere: `--token-file` (see `readTokenFile`), else
 * `--token`, else `BOT_CONVERSATION_TOKEN` from `env`; trimmed. Throws a `TypeError` naming the three
 * when none holds a token, or naming the file when it cannot be used.
 */
export function tokenOf(flags: TokenFlags, env: NodeJS.ProcessEnv): string {
  const token = flags.tokenFile !== undefined ? readTokenFile(flags.tokenFile) : (flags.token ?? env[tokenVariable] ?? "").trim();
  if (!token) throw new TypeError(`no token: pass --token-file <path> or --token <token>, or set ${tokenVariable}; expected the access token sent in X-Token`);
  return token;
}

/**
 * Calls routes outside the service's description (the sandbox's control API, e.g. `/_sandbox/workspaces`)
 * exactly as the client calls the service: the same option checks (a `baseUrl` with a user name or
 * password is a `TypeError` that does not quote it), transport (time-outs, retries of a GET, no
 * redirects, reads bounded by `maxResponseBytes`) and typed, redacted errors. `run(method, path,
 * { params: { query, path }, body }, options, check, expected)`: the body parsed as JSON and handed to
 * `check` (`fail(problem, value)` throws `UnexpectedResponseError`); without `check`, only `expected` resolves.
 */
export function createRequester(options: BotConversationClientOptions): Run {
  return createCaller(options)[1];
}
