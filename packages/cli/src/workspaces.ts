import { readFileSync } from "node:fs";
import { limitResponse } from "@bot-conversation/client";
import { readTokenFile } from "@bot-conversation/client/command-line";
import { sanitizeText } from "@bot-conversation/client/text";
import { parseSwitch, sandboxStates, switchDefinitions } from "@bot-conversation/sandbox";
import { Command, Option } from "commander";
import { secrets } from "./connection.js";
import { type CommandIo, exitCodes, UsageError } from "./io.js";
import { type CommandColumns, type OutputFormat, outputOption, recordWriter } from "./output/format.js";

/** The flags of every `workspaces` command: where the shared sandbox is, and the administrator token's file. */
interface AdminFlags {
  /** `--base-url`, else `BOT_CONVERSATION_BASE_URL`. */
  readonly baseUrl?: string;
  /** `--admin-token-file`, else `SANDBOX_ADMIN_TOKEN`. */
  readonly adminTokenFile?: string;
  /** `--output`. */
  readonly output?: OutputFormat;
}

/** Bytes of an answer the command reads at most: the administrator's answers are small. */
const maxAnswerBytes = 1024 * 1024;

/** Columns of a workspace as listed, and as created (with its token). */
const listColumns: CommandColumns = {
  table: [
    { header: "name", get: (record) => (record as { name: string }).name },
    { header: "createdAt", get: (record) => (record as { createdAt: string }).createdAt },
  ],
  csv: [
    { header: "name", get: (record) => (record as { name: string }).name },
    { header: "createdAt", get: (record) => (record as { createdAt: string }).createdAt },
  ],
};
const createdColumns: CommandColumns = {
  table: ["name", "token", "bots", "conversations"].map((header) => ({ header, get: (record: unknown) => (record as Record<string, unknown>)[header] })),
  csv: ["name", "token", "bots", "conversations"].map((header) => ({ header, get: (record: unknown) => (record as Record<string, unknown>)[header] })),
};

/** Adds `--base-url`, `--admin-token-file` and `--output` to a `workspaces` command. */
function adminOptions(command: Command): Command {
  return command
    .addOption(new Option("--base-url <url>", "base address of the shared sandbox, e.g. http://sandbox.internal (default: $BOT_CONVERSATION_BASE_URL)"))
    .option(
      "--admin-token-file <path>",
      "read the administrator token (--admin-token of the sandbox) from this regular file: the whole file, trimmed, one line (default: $SANDBOX_ADMIN_TOKEN)",
    )
    .addOption(outputOption());
}

/** The base URL and the administrator token; a `UsageError` names what is missing. */
function adminConnection(flags: AdminFlags, io: CommandIo): { baseUrl: string; token: string } {
  const baseUrl = flags.baseUrl ?? io.env["BOT_CONVERSATION_BASE_URL"];
  if (!baseUrl || !URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    throw new UsageError("--base-url: expected the shared sandbox's http(s) address, e.g. http://sandbox.internal (or set BOT_CONVERSATION_BASE_URL)");
  }
  let token = io.env["SANDBOX_ADMIN_TOKEN"]?.trim();
  if (flags.adminTokenFile !== undefined) {
    try {
      // The toolkit's one reading of a token file: a regular file, bounded, trimmed, one line.
      token = readTokenFile(flags.adminTokenFile, "--admin-token-file");
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  if (!token || /[\r\n]/.test(token)) throw new UsageError("no administrator token: set SANDBOX_ADMIN_TOKEN or pass --admin-token-file <path> (one line)");
  secrets.add(token);
  return { baseUrl: baseUrl.replace(/\/+$/, ""), token };
}

/** Sends one request of the administrator's API; resolves to the parsed answer, or throws the sandbox's problem as one line. */
async function send(flags: AdminFlags, io: CommandIo, method: string, path: string, body?: unknown): Promise<unknown> {
  const { baseUrl, token } = adminConnection(flags, io);
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    // Never followed: the token stays with the given origin.
    redirect: "manual",
    headers: { "x-token": token, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(io.signal ? { signal: io.signal } : {}),
  });
  // Read within `maxAnswerBytes`, as the client reads every answer (the rest never read).
  const text = await limitResponse(response, maxAnswerBytes, `${method} ${path}`).text();
  if (response.ok) return text === "" ? undefined : (JSON.parse(text) as unknown);
  let detail = text.slice(0, 500);
  try {
    detail = String((JSON.parse(text) as { detail?: unknown }).detail ?? detail);
  } catch {
    // Not a problem body: its first characters are shown.
  }
  const retry = response.headers.get("retry-after");
  throw new Error(`${method} ${path}: ${response.status}: ${sanitizeText(detail)}${retry === null ? "" : ` (Retry-After: ${sanitizeText(retry)} s)`}`);
}

/** Writes records in the chosen format. */
async function print(io: CommandIo, flags: AdminFlags, columns: CommandColumns, records: unknown[]): Promise<void> {
  const writer = recordWriter(flags.output, io.stdout, columns, { secrets: [...secrets] });
  await writer.write(records);
  await writer.end();
}

/** The `workspaces` command: `create`, `list` and `delete` the workspaces of a shared sandbox, with the administrator token. */
export function newWorkspacesCommand(io: CommandIo, done: (code: number) => void): Command {
  const workspaces = new Command("workspaces")
    .description("Manage the workspaces of a sandbox (started with --admin-token; in memory, --data or --database-url) with its administrator token.")
    .addHelpText("after", "\nExample:\n  SANDBOX_ADMIN_TOKEN=… bot-conversation workspaces list --base-url http://sandbox.internal\n");
  const create = adminOptions(
    new Command("create").description("Create a workspace; prints its token, once.").argument("<name>", "lower-case letters, digits and dashes"),
  )
    .option("--seed <text>", "seed of the generated data")
    .option("--conversations <n>", "number of conversations to generate")
    .addOption(new Option("--state <name>", "named starting state").choices([...sandboxStates]))
    .option("--fixture <file>", "a JSON fixture to load instead of generated data");
  for (const definition of switchDefinitions)
    create.option(`--${definition.flag} <value>`, `switch: ${Array.isArray(definition.values) ? definition.values.join(", ") : `a ${definition.values}`}`);
  create
    .addHelpText(
      "after",
      "\nExample:\n  SANDBOX_ADMIN_TOKEN=… bot-conversation workspaces create mobile --base-url http://sandbox.internal --conversations 50 --page-base 1\n",
    )
    .action(async (name: string, flags: AdminFlags & Record<string, string | undefined>) => {
      const body: Record<string, unknown> = { name };
      if (flags["seed"] !== undefined) body["seed"] = flags["seed"];
      if (flags["conversations"] !== undefined) {
        if (!/^\d{1,7}$/.test(flags["conversations"]))
          throw new UsageError(`--conversations: expected an integer from 0 to 1000000; got ${JSON.stringify(flags["conversations"])}`);
        body["conversations"] = Number(flags["conversations"]);
      }
      if (flags["state"] !== undefined) body["state"] = flags["state"];
      if (flags["fixture"] !== undefined) {
        try {
          body["fixture"] = JSON.parse(readFileSync(flags["fixture"], "utf8")) as unknown;
        } catch (error) {
          throw new UsageError(`--fixture: cannot read ${flags["fixture"]} as JSON (${(error as Error).message})`);
        }
      }
      const switches: Record<string, unknown> = {};
      for (const definition of switchDefinitions) {
        // Commander names an option by the camel case of its flag: the switch's own key.
        const given = flags[definition.key];
        if (given === undefined) continue;
        try {
          switches[definition.key] = parseSwitch(definition, given);
        } catch (error) {
          throw new UsageError((error as Error).message);
        }
      }
      if (Object.keys(switches).length > 0) body["switches"] = switches;
      await print(io, flags, createdColumns, [await send(flags, io, "POST", "/_sandbox/workspaces", body)]);
      done(exitCodes.ok);
    });
  const list = adminOptions(new Command("list").description("List the workspaces, by name."))
    .addHelpText("after", "\nExample:\n  SANDBOX_ADMIN_TOKEN=… bot-conversation workspaces list --base-url http://sandbox.internal --output json\n")
    .action(async (flags: AdminFlags) => {
      await print(io, flags, listColumns, (await send(flags, io, "GET", "/_sandbox/workspaces")) as unknown[]);
      done(exitCodes.ok);
    });
  const remove = adminOptions(
    new Command("delete").description("Remove a workspace and all its data; its token is refused from then on.").argument("<name>", "the workspace's name"),
  )
    .addHelpText("after", "\nExample:\n  SANDBOX_ADMIN_TOKEN=… bot-conversation workspaces delete mobile --base-url http://sandbox.internal\n")
    .action(async (name: string, flags: AdminFlags) => {
      await send(flags, io, "DELETE", `/_sandbox/workspaces/${encodeURIComponent(name)}`);
      io.stderr.write(`Removed the workspace ${sanitizeText(name)}.\n`);
      done(exitCodes.ok);
    });
  for (const command of [create, list, remove]) workspaces.addCommand(command);
  return workspaces;
}
