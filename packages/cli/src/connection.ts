import { readFileSync } from "node:fs";
import { createBotConversationClient, type BotConversationClient } from "@bot-conversation/client";
import { sanitizeText, tokenFromFile } from "@bot-conversation/client/text";
import { Option, type Command } from "commander";
import { UsageError, type CommandIo } from "./io.js";

/** The flags every command that calls the service takes. */
export interface ConnectionFlags {
  /** `--base-url`, else `BOT_CONVERSATION_BASE_URL`. */
  readonly baseUrl?: string;
  /** `--token-file`: a file holding the token. */
  readonly tokenFile?: string;
  /** `--verbose`: a redacted line per request on stderr. */
  readonly verbose?: boolean;
}

/** Adds `--base-url`, `--token-file` and `--verbose` to a command. */
export function connectionOptions(command: Command): Command {
  return command
    .addOption(new Option("--base-url <url>", "base address of the service, e.g. http://127.0.0.1:4011 (default: $BOT_CONVERSATION_BASE_URL)"))
    .option("--token-file <path>", "file holding the access token sent in X-Token: one line, trimmed (default: $BOT_CONVERSATION_TOKEN)")
    .option("--verbose", "print one line per request on stderr (method, path, status, request id, duration; never the token)");
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

/** Reads the base URL and the token (the token file wins over the variable) and creates the client; a `UsageError` names what is missing. */
export function connect(flags: ConnectionFlags, io: CommandIo): Connection {
  const baseUrl = flags.baseUrl ?? io.env["BOT_CONVERSATION_BASE_URL"];
  if (!baseUrl) throw new UsageError("no base URL: pass --base-url <url> or set BOT_CONVERSATION_BASE_URL, e.g. http://127.0.0.1:4011");
  let token = io.env["BOT_CONVERSATION_TOKEN"];
  if (flags.tokenFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(flags.tokenFile, "utf8");
    } catch (error) {
      throw new UsageError(`--token-file: cannot read ${flags.tokenFile} (${(error as NodeJS.ErrnoException).code ?? "error"}); expected a file holding the access token`);
    }
    try {
      // The one rule of every command (the client's): the whole file, trimmed; one line.
      token = tokenFromFile(text, `--token-file ${flags.tokenFile}`);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  if (!token?.trim()) throw new UsageError("no token: set BOT_CONVERSATION_TOKEN or pass --token-file <path>; expected the access token sent in X-Token");
  secrets.add(token.trim());
  try {
    const client = createBotConversationClient({
      baseUrl: baseUrl.replace(/\/+$/, ""),
      token,
      // A line quotes the server's x-request-id: shown sanitized, as every line a person reads.
      ...(flags.verbose ? { logger: (line: string) => void io.stderr.write(`${sanitizeText(line)}\n`) } : {}),
    });
    return { client, token: token.trim() };
  } catch (error) {
    // The client names the option (`baseUrl`, `token`) and what it expected, never the value of either.
    throw new UsageError(`${(error as Error).message.replace(/^baseUrl/, "--base-url").replace(/^token/, "token")}`);
  }
}
