/**
 * CONTRIBUTING's "Add a search filter", followed as written on a copy of the workspace (issue 49, item 4): a
 * parameter's YAML in `openapi/` and one row of the search filters' table, and no other edit. The copy's
 * packages are built by their own build scripts (the description and the table; the sandbox, which compiles
 * the new row), over the workspace's installed dependencies (each `node_modules` entry a link, the copied
 * packages' links pointing into the copy). Then, in this process: the copy's sandbox filters by the new
 * parameter and refuses a value its schema rules out, the conformance kit's model finds what the sandbox finds
 * and `filter_match` judges it, the CLI has its flag (with the schema's values) and the MCP tool its argument,
 * which finds the same conversations through the sandbox.
 *
 * The filter is `closingStatus`, a nullable enumeration of the summary: the seed does not list it as a search
 * parameter, so it exists only in the copy.
 */
import { execFile } from "node:child_process";
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { createBotConversationClient } from "@bot-conversation/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaceRoot } from "../src/major-guard.ts";

const run = promisify(execFile);
/** What the copy holds: the description and the packages the recipe promises to follow (and the Redocly config the builds read). */
const copied = ["openapi", "packages/sandbox", "packages/conformance", "packages/cli"];
const filter = { name: "closingStatus", matches: "closingStatus", parameterFile: "ClosingStatusQuery.yaml" };
const token = "sandbox-token";
let copy: string;
/** The files the recipe changed in the copy, as git sees them (build outputs are ignored). */
let changed: string[];
/** The copy's sandbox, in this process: 300 generated conversations, one page holding them all. */
let sandbox: import("@bot-conversation/sandbox").Sandbox | undefined;

/** Links each entry of a package's `node_modules` to the workspace's, the copied packages to the copy's. */
function linkDependencies(packageDir: string): void {
  const from = join(workspaceRoot, packageDir, "node_modules");
  const to = join(copy, packageDir, "node_modules");
  for (const entry of readdirSync(from).flatMap((name) => (name.startsWith("@") ? readdirSync(join(from, name)).map((inner) => join(name, inner)) : [name]))) {
    if (entry.startsWith(".vite")) continue;
    const real = realpathSync(join(from, entry));
    const inCopy = copied.find((dir) => real === join(workspaceRoot, dir));
    mkdirSync(dirname(join(to, entry)), { recursive: true });
    symlinkSync(inCopy ? join(copy, inCopy) : real, join(to, entry));
  }
}

/** Runs a package's own `build` script in the copy, its `node_modules/.bin` first on the PATH. */
async function build(packageDir: string): Promise<void> {
  const cwd = join(copy, packageDir);
  const { scripts } = JSON.parse(readFileSync(join(cwd, "package.json"), "utf8")) as { scripts: { build: string } };
  await run("sh", ["-c", scripts.build], { cwd, env: { ...process.env, PATH: `${join(cwd, "node_modules", ".bin")}:${process.env["PATH"]}` } });
}

const git = (...args: string[]) => run("git", ["-c", "user.name=recipe", "-c", "user.email=recipe@example.invalid", ...args], { cwd: copy });

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), "add-a-filter-"));
  const { stdout } = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...copied, "redocly.yaml", ".gitignore"], {
    cwd: workspaceRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  for (const file of stdout.split("\0").filter(Boolean)) {
    // A file deleted in the working tree but still in the index is not part of the copy.
    if (!lstatSync(join(workspaceRoot, file), { throwIfNoEntry: false })) continue;
    mkdirSync(join(copy, dirname(file)), { recursive: true });
    cpSync(join(workspaceRoot, file), join(copy, file));
  }
  for (const dir of copied) linkDependencies(dir);
  await git("init", "-q");
  await git("add", "-A");
  await git("commit", "-q", "-m", "before the recipe");

  // The recipe, step 1: the parameter's file, its `$ref` beside the search's other parameters, carried by the `nextPage` link.
  writeFileSync(
    join(copy, "openapi/components/parameters", filter.parameterFile),
    [
      `name: ${filter.name}`,
      "in: query",
      "required: false",
      "description: Closing status of the conversation; a conversation whose closing status is null is never found by it.",
      "schema:",
      "  $ref: ../schemas/ConversationClosingStatus.yaml",
      "example: SessionClosed",
      "",
    ].join("\n"),
  );
  const pathFile = join(copy, "openapi/paths/channels_conversations.yaml");
  const path = readFileSync(pathFile, "utf8");
  const withRef = path.replace(
    "    - $ref: ../components/parameters/ChannelIdQuery.yaml\n",
    `    - $ref: ../components/parameters/ChannelIdQuery.yaml\n    - $ref: ../components/parameters/${filter.parameterFile}\n`,
  );
  const withLink = withRef.replace(
    "            channelId: $request.query.channelId\n",
    `            channelId: $request.query.channelId\n            ${filter.name}: $request.query.${filter.name}\n`,
  );
  expect(withLink).not.toBe(withRef);
  writeFileSync(pathFile, withLink);
  // Step 2: one row of the table.
  const tableFile = join(copy, "openapi/src/search-filters.ts");
  const table = readFileSync(tableFile, "utf8");
  const row = '  { name: "channelId", matches: "channelId", how: "equal" },\n';
  expect(table).toContain(row);
  writeFileSync(tableFile, table.replace(row, `${row}  { name: "${filter.name}", matches: "${filter.matches}", how: "equal" },\n`));
  changed = (await git("status", "--porcelain", "--untracked-files=all")).stdout.split("\n").filter(Boolean);

  // Built as the workspace builds them: the description and the table, then the sandbox (which compiles the row).
  await build("openapi");
  await build("packages/sandbox");
  const { createSandbox } = await fromCopy<typeof import("@bot-conversation/sandbox")>("packages/sandbox/dist/index.js");
  sandbox = await createSandbox({ conversations: 300, seed: "add-a-filter", maxPageSize: null });
});
afterAll(async () => {
  await sandbox?.close();
  if (copy) rmSync(copy, { recursive: true, force: true });
});

/** A module of the copy, by its path there. */
const fromCopy = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(copy, path)).href)) as T;

interface Summary {
  readonly id: string;
  readonly closingStatus: string | null;
}

/** A search of the copy's sandbox, every match on one page. */
async function search(query: string): Promise<{ status: number; body: { items: Summary[]; totalItemCount: number } }> {
  const response = await sandbox!.fetch(`http://sandbox.test/api/v2/channels/conversations?pageSize=1000&${query}`, { headers: { "x-token": token } });
  return { status: response.status, body: (await response.json()) as { items: Summary[]; totalItemCount: number } };
}

describe("CONTRIBUTING's recipe, add a search filter, on a copy of the workspace: a parameter's YAML and one table row", () => {
  it("the recipe says what the test does: the parameter file, its $ref and the nextPage link, one row of searchFilters, and nothing else to edit", () => {
    const recipe = readFileSync(join(workspaceRoot, "CONTRIBUTING.md"), "utf8").split("### Add a search filter")[1]!.split("\n### ")[0]!;
    for (const named of [
      "openapi/components/parameters/",
      "openapi/paths/channels_conversations.yaml",
      "nextPage",
      "openapi/src/search-filters.ts",
      "searchFilters",
    ])
      expect(recipe).toContain(named);
    expect(changed.sort()).toEqual([
      " M openapi/paths/channels_conversations.yaml",
      " M openapi/src/search-filters.ts",
      `?? openapi/components/parameters/${filter.parameterFile}`,
    ]);
  });

  it("the sandbox filters by it, and refuses a value its schema rules out, naming the parameter", async () => {
    const all = (await search("")).body.items;
    const values = all.map((item) => item.closingStatus).filter((value): value is string => value !== null);
    // The generated data holds conversations with a closing status and without one.
    expect(values.length).toBeGreaterThan(0);
    expect(values.length).toBeLessThan(all.length);
    for (const value of new Set(values)) {
      const found = await search(`${filter.name}=${value}`);
      expect(found.status).toBe(200);
      expect(found.body.items.map((item) => item.id).sort()).toEqual(
        all
          .filter((item) => item.closingStatus === value)
          .map((item) => item.id)
          .sort(),
      );
      expect(found.body.totalItemCount).toBe(found.body.items.length);
    }
    const refused = await search(`${filter.name}=Nope`);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(`query.${filter.name}`);
  });

  it("the conformance kit's model finds what the sandbox finds, and filter_match passes its page and fails one holding another value", async () => {
    const { SearchModel } = await fromCopy<typeof import("../../conformance/src/model.ts")>("packages/conformance/src/model.ts");
    const { filterMatch } = await fromCopy<typeof import("../../conformance/src/checks/filters.ts")>("packages/conformance/src/checks/filters.ts");
    const all = (await search("")).body;
    const model = SearchModel.of([all as never]);
    for (const value of ["SessionClosed", "Initiated", "NotInitiated"]) {
      const answer = model.answer({ [filter.name]: value });
      const served = (await search(`${filter.name}=${value}`)).body;
      expect("ids" in answer && [...answer.ids].sort()).toEqual(served.items.map((item) => item.id).sort());
      // filter_match of the served page, and of the same page with a conversation of another closing status in it.
      const judged = (page: unknown) =>
        filterMatch(
          {
            case: { operationId: "searchConversations", method: "GET", path: "/", query: { [filter.name]: value }, authentication: "token" },
            status: 200,
            headers: new Headers({ "content-type": "application/json" }),
            text: JSON.stringify(page),
            json: page,
            isJson: true,
            elapsedMs: 1,
          } as never,
          { decisions: {} } as never,
        );
      expect(judged(served)).toBeUndefined();
      const stranger = all.items.find((item) => item.closingStatus !== value)!;
      expect(judged({ ...served, items: [...served.items, stranger] })).toContain(`item "${stranger.id}": ${filter.name}`);
    }
  });

  it("the CLI has its flag, with the schema's values, and reads it; the MCP tool has its argument, which finds the same conversations", async () => {
    // The values of the schema the parameter's file names, from the copy's bundle.
    const bundle = JSON.parse(readFileSync(join(copy, "openapi/dist/openapi.json"), "utf8")) as { components: { schemas: Record<string, { enum: string[] }> } };
    const enumeration = bundle.components.schemas["ConversationClosingStatus"]!.enum;
    expect(enumeration).toContain("SessionClosed");
    const cli = await fromCopy<typeof import("../../cli/src/search.ts")>("packages/cli/src/search.ts");
    const option = cli.newSearchCommand({} as never, () => undefined).options.find((candidate) => candidate.long === "--closing-status");
    expect(option?.argChoices).toEqual(enumeration);
    expect(await cli.searchQuery({ [filter.name]: "SessionClosed" })).toEqual({ [filter.name]: "SessionClosed" });
    await expect(cli.searchQuery({ [filter.name]: "Nope" })).rejects.toThrow(`--closing-status: expected one of ${enumeration.join(", ")}; got "Nope"`);

    const { tools } = await fromCopy<typeof import("../../cli/src/mcp/tools.ts")>("packages/cli/src/mcp/tools.ts");
    const searchTool = tools(false).find((tool) => tool.definition.name === "search_conversations")!;
    expect(searchTool.definition.inputSchema["properties"]).toHaveProperty([filter.name, "enum"], enumeration);
    const client = createBotConversationClient({ baseUrl: "http://sandbox.test", token, fetch: (input, init) => sandbox!.fetch(input, init) });
    const result = (await searchTool.call(client, { [filter.name]: "SessionClosed", pageSize: 1000 }, AbortSignal.timeout(60_000))) as {
      items: Summary[];
      totalItemCount: number;
    };
    expect(result.totalItemCount).toBeGreaterThan(0);
    expect(result.items.every((item) => item.closingStatus === "SessionClosed")).toBe(true);
  });
});
