import { readFileSync } from "node:fs";
import { PaginationError } from "@bot-conversation/client";
import { type BodyCheck, createRequester, type Run, readTokenFile } from "@bot-conversation/client/command-line";
import { sanitizeText } from "@bot-conversation/client/text";
// The switches and states from the sandbox's light command entry: the program (a search's export too) starts without the sandbox itself.
import { oversizedFixtureFile, parseSwitch, sandboxStates, switchDefinitions } from "@bot-conversation/sandbox/command";
import { Command, Option } from "commander";
import { asFlags, baseUrlOf, secrets } from "./connection.js";
import { type CommandIo, exitCodes, UsageError } from "./io.js";
import { type CommandColumns, type OutputFormat, outputOption, recordWriter } from "./output/format.js";

/** The flags of every `workspaces` command: where the shared sandbox is, the administrator token's file, the time-out and the output. */
interface AdminFlags {
  /** `--base-url`, else `BOT_CONVERSATION_BASE_URL`. */
  readonly baseUrl?: string;
  /** `--admin-token-file`, else `SANDBOX_ADMIN_TOKEN`. */
  readonly adminTokenFile?: string;
  /** `--timeout`, in milliseconds. */
  readonly timeout?: string;
  /** `--output`. */
  readonly output?: OutputFormat;
}

/** Bytes of an answer the command reads at most (the client's `maxResponseBytes`): a page of 1,000 workspaces is about 70 kB. */
const maxAnswerBytes = 1024 * 1024;

/** Workspaces asked for in one page of the list (the sandbox's default, said here so the bound above holds whatever the sandbox's default becomes). */
const listPageSize = 1000;

/** A workspace as listed. */
interface Workspace {
  readonly name: string;
  readonly createdAt: string;
}

/** Columns of a workspace as listed, and as created (with its token). */
const listColumns: CommandColumns = {
  table: [
    { header: "name", get: (record) => (record as Workspace).name },
    { header: "createdAt", get: (record) => (record as Workspace).createdAt },
  ],
  csv: [
    { header: "name", get: (record) => (record as Workspace).name },
    { header: "createdAt", get: (record) => (record as Workspace).createdAt },
  ],
};
const createdColumns: CommandColumns = {
  table: ["name", "token", "bots", "conversations"].map((header) => ({ header, get: (record: unknown) => (record as Record<string, unknown>)[header] })),
  csv: ["name", "token", "bots", "conversations"].map((header) => ({ header, get: (record: unknown) => (record as Record<string, unknown>)[header] })),
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A page of the list: an array of workspaces, each with a string `name` and `createdAt`; anything else fails the call (`UnexpectedResponseError`, exit 1). */
const toWorkspaces: BodyCheck<Workspace[]> = (body, fail) => {
  if (!Array.isArray(body)) return fail("expected a list of workspaces", body);
  const bad = body.findIndex((item) => !(isObject(item) && typeof item["name"] === "string" && typeof item["createdAt"] === "string"));
  if (bad > -1) fail(`[${bad}]: expected a workspace, an object with the strings name and createdAt`, body[bad]);
  return body as Workspace[];
};

/** A created workspace: an object (its name, token and counts are printed as they came). */
const toCreated: BodyCheck<Record<string, unknown>> = (body, fail) => (isObject(body) ? body : fail("expected the created workspace, an object", body));

/** Adds `--base-url`, `--admin-token-file`, `--timeout` and `--output` to a `workspaces` command. */
function adminOptions(command: Command): Command {
  return command
    .addOption(new Option("--base-url <url>", "base address of the shared sandbox, e.g. http://sandbox.internal (default: $BOT_CONVERSATION_BASE_URL)"))
    .option(
      "--admin-token-file <path>",
      "read the administrator token (--admin-token of the sandbox) from this regular file: the whole file, trimmed, one line (default: $SANDBOX_ADMIN_TOKEN)",
    )
    .option("--timeout <ms>", "time-out of one request in milliseconds, its answer's body included (default 60000)")
    .addOption(outputOption());
}

/**
 * The requester of the shared sandbox's administrator routes: the client's (its transport's time-outs,
 * retries of a GET and refused redirects, reads bounded to `maxAnswerBytes`, typed and redacted errors,
 * and its check of the base URL); a `UsageError` names what is missing or wrong, before anything is sent.
 */
function adminRequester(flags: AdminFlags, io: CommandIo): Run {
  const baseUrl = baseUrlOf(flags, io);
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
  if (flags.timeout !== undefined && !/^\d{1,10}$/.test(flags.timeout))
    throw new UsageError(`--timeout: expected a whole number of milliseconds; got ${JSON.stringify(flags.timeout)}`);
  // Its range is the client's rule (`timeoutMs`), worded as the flag by `asFlags`.
  const timeoutMs = flags.timeout === undefined ? undefined : Number(flags.timeout);
  return asFlags(() => createRequester({ baseUrl, token, maxResponseBytes: maxAnswerBytes, ...(timeoutMs === undefined ? {} : { timeoutMs }) }));
}

/** Checks a workspace's name by the sandbox's one rule (`WorkspaceName`), before anything is sent: a `UsageError` (exit 2) otherwise. */
async function checkName(name: string): Promise<void> {
  // Loaded here, when a name is checked: the sandbox's descriptions and their validator are not the program's to load at start.
  const { workspaceNameDefects } = await import("@bot-conversation/sandbox");
  const [defect] = workspaceNameDefects(name, "<name>");
  if (defect) {
    throw new UsageError(
      `${defect.path}: ${defect.message} (a workspace name: lower-case letters, digits and dashes, starting and ending with a letter or digit); nothing was sent`,
    );
  }
}

/**
 * Every workspace, page by page as the sandbox pages them (`limit`, `cursor`, `X-Next-Cursor`), each page
 * written as it arrives; a sandbox that names the same cursor again, or an empty page with more to
 * follow, ends the list with `PaginationError` rather than asking for ever.
 */
async function listAll(run: Run, io: CommandIo, write: (workspaces: readonly Workspace[]) => Promise<void>): Promise<void> {
  let cursor: string | undefined;
  do {
    let next: string | null = null;
    const query = { limit: listPageSize, ...(cursor === undefined ? {} : { cursor }) };
    const page = await run(
      "GET",
      "/_sandbox/workspaces",
      { params: { query } },
      { signal: io.signal, onResponse: (response) => (next = response.headers.get("x-next-cursor")) },
      toWorkspaces,
    );
    if (next !== null && (next === cursor || page.length === 0)) {
      throw new PaginationError(`GET /_sandbox/workspaces: X-Next-Cursor ${JSON.stringify(next)} after ${page.length} workspaces would not move the list on`);
    }
    await write(page);
    cursor = next ?? undefined;
  } while (cursor !== undefined);
}

/** Writes records in the chosen format: the batches `produce` hands over, each as it comes. */
async function print(
  io: CommandIo,
  flags: AdminFlags,
  columns: CommandColumns,
  produce: (write: (records: readonly unknown[]) => Promise<void>) => Promise<void>,
): Promise<void> {
  const writer = recordWriter(flags.output, io.stdout, columns, { secrets: [...secrets] });
  await produce((records) => writer.write(records));
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
      await checkName(name);
      const body: Record<string, unknown> = { name };
      if (flags["seed"] !== undefined) body["seed"] = flags["seed"];
      if (flags["conversations"] !== undefined) {
        if (!/^\d{1,7}$/.test(flags["conversations"]))
          throw new UsageError(`--conversations: expected an integer from 0 to 1000000; got ${JSON.stringify(flags["conversations"])}`);
        body["conversations"] = Number(flags["conversations"]);
      }
      if (flags["state"] !== undefined) body["state"] = flags["state"];
      if (flags["fixture"] !== undefined) {
        // Refused by its size before it is read (the sandbox's own bound, one line), as the sandbox refuses it.
        let oversized: string | undefined;
        try {
          oversized = await oversizedFixtureFile(flags["fixture"]);
          if (oversized === undefined) body["fixture"] = JSON.parse(readFileSync(flags["fixture"], "utf8")) as unknown;
        } catch (error) {
          throw new UsageError(`--fixture: cannot read ${flags["fixture"]} as JSON (${(error as Error).message})`);
        }
        if (oversized !== undefined) throw new UsageError(`--fixture: ${oversized}`);
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
      const run = adminRequester(flags, io);
      const created = await run("POST", "/_sandbox/workspaces", { body }, { signal: io.signal }, toCreated);
      await print(io, flags, createdColumns, (write) => write([created]));
      done(exitCodes.ok);
    });
  const list = adminOptions(new Command("list").description("List every workspace, by name, page by page as the sandbox pages them."))
    .addHelpText("after", "\nExample:\n  SANDBOX_ADMIN_TOKEN=… bot-conversation workspaces list --base-url http://sandbox.internal --output json\n")
    .action(async (flags: AdminFlags) => {
      const run = adminRequester(flags, io);
      await print(io, flags, listColumns, (write) => listAll(run, io, write));
      done(exitCodes.ok);
    });
  const remove = adminOptions(
    new Command("delete").description("Remove a workspace and all its data; its token is refused from then on.").argument("<name>", "the workspace's name"),
  )
    .addHelpText("after", "\nExample:\n  SANDBOX_ADMIN_TOKEN=… bot-conversation workspaces delete mobile --base-url http://sandbox.internal\n")
    .action(async (name: string, flags: AdminFlags) => {
      await checkName(name);
      await adminRequester(flags, io)("DELETE", "/_sandbox/workspaces/{name}", { params: { path: { name } } }, { signal: io.signal }, undefined, 204);
      io.stderr.write(`Removed the workspace ${sanitizeText(name)}.\n`);
      done(exitCodes.ok);
    });
  for (const command of [create, list, remove]) workspaces.addCommand(command);
  return workspaces;
}
