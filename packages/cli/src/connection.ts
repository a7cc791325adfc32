import { type BotConversationClient, createBotConversationClient } from "@bot-conversation/client";
import { type TokenFlags, tokenFlags, tokenOf } from "@bot-conversation/client/command-line";
import { sanitizeText } from "@bot-conversation/client/text";
import { type Command, Option } from "commander";
import { type CommandIo, UsageError } from "./io.js";

/** The flags every command that calls the service takes. */
export interface ConnectionFlags extends TokenFlags {
  /** `--base-url`, else `BOT_CONVERSATION_BASE_URL`. */
  readonly baseUrl?: string;
  /** `--verbose`: a redacted line per request on stderr. */
  readonly verbose?: boolean;
}

/** Adds `--base-url`, `--token`, `--token-file` (the toolkit's `tokenFlags`, as `check` takes them) and `--verbose` to a command. */
export function connectionOptions(command: Command): Command {
  command.addOption(new Option("--base-url <url>", "base address of the service, e.g. http://127.0.0.1:4011 (default: $BOT_CONVERSATION_BASE_URL)"));
  for (const flag of tokenFlags) command.option(flag.flags, flag.description);
  return command.option("--verbose", "print one line per request on stderr (method, path, status, request id, duration; never the token)");
}

/** Every token read in this process (variable or file): redacted from anything the command prints. */
export const secrets = new Set<string>();

/** A client and the secrets that must never be printed. */
export interface Connection {
  /** The client of the service. */
  readonly client: BotConversationClient;
  /** The token, to redact from anything printed. */
  readonly token: string;
}

/** The base URL of a command: `--base-url`, else `BOT_CONVERSATION_BASE_URL`; a `UsageError` when neither is set. Checked by the client's rule where it is used (`asFlags`). */
export function baseUrlOf(flags: { readonly baseUrl?: string | undefined }, io: CommandIo): string {
  const baseUrl = flags.baseUrl ?? io.env["BOT_CONVERSATION_BASE_URL"];
  if (!baseUrl) throw new UsageError("no base URL: pass --base-url <url> or set BOT_CONVERSATION_BASE_URL, e.g. http://127.0.0.1:4011");
  return baseUrl.replace(/\/+$/, "");
}

/**
 * Creates a client (or a requester) by the client's own checks of its options, its mistakes worded as
 * the command's flags: the client names the option (`baseUrl`, `token`) and what it expected, never the
 * value of either, so a `--base-url` with a user name or password is refused without being quoted,
 * by one rule for every command.
 */
export function asFlags<T>(create: () => T): T {
  try {
    return create();
  } catch (error) {
    throw new UsageError(`${(error as Error).message.replace(/^baseUrl/, "--base-url").replace(/^timeoutMs/, "--timeout")}`);
  }
}

/** Reads the base URL and the token (`tokenOf`: the file, else the flag, else the variable) and creates the client; a `UsageError` names what is missing. */
export function connect(flags: ConnectionFlags, io: CommandIo): Connection {
  const baseUrl = baseUrlOf(flags, io);
  let token: string;
  try {
    // The one reading of every command (`check` too): --token-file, else --token, else BOT_CONVERSATION_TOKEN.
    token = tokenOf(flags, io.env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  secrets.add(token);
  const client = asFlags(() =>
    createBotConversationClient({
      baseUrl,
      token,
      // A line quotes the server's x-request-id: shown sanitized, as every line a person reads.
      ...(flags.verbose ? { logger: (line: string) => void io.stderr.write(`${sanitizeText(line)}\n`) } : {}),
    }),
  );
  return { client, token };
}
