import { execFileSync } from "node:child_process";
import { mkdtemp, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { maxTokenFileBytes } from "@bot-conversation/client/command-line";
import { agentInjection, formulas, type HostileMode, type HostileServer, hostileText, startHostileServer } from "@bot-conversation/test-support/hostile-server";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { parse } from "csv-parse/sync";
import { afterEach, describe, expect, it } from "vitest";
import { maxResultBytes, maxStringCharacters } from "../src/mcp/limits.ts";
import { thirdPartyNotice } from "../src/mcp/tools.ts";
import { peakRssFile, peakRssPreload, runBinMeasured } from "./support/child.ts";
import { binPath, runCli } from "./support/cli.ts";
import { envOf, useSandbox } from "./support/sandbox.ts";

const secret = "tok-SECRET-hostile-123";
const sandbox = useSandbox({ seed: "cli-hostile", conversations: 30 });
const servers: HostileServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function hostile(mode: HostileMode): Promise<{ server: HostileServer; env: NodeJS.ProcessEnv }> {
  const server = await startHostileServer(mode);
  servers.push(server);
  return { server, env: { BOT_CONVERSATION_BASE_URL: server.url, BOT_CONVERSATION_TOKEN: secret } };
}

/** Characters that act on a terminal: none may reach a person's output raw. */
const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** Peak RSS a child may reach against an endless body. */
const maxPeakRss = 300 * 1024 * 1024;

describe("hostile text never acts on the terminal", () => {
  it("search --output table: control sequences shown as escapes, each cell on one line, cut at 48 characters with an ellipsis", async () => {
    const { env } = await hostile("control");
    const run = await runCli(["search", "--output", "table"], env);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(raw);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(run.stdout).toContain("c-hi\\x1b[2Jx\\x1b]52;c;ZWNobyBwd25lZA==\\x07x\\x1b…");
    // The last column (the text) is whole here: 200 characters are room for it, escapes included.
    // A CR is white space: made one space, as a line break or a tab would be.
    expect(lines[1]).toContain("\\x1b]8;;http://evil.example/\\x1b\\click\\x1b]8;;\\x1b\\x\\x07x x\\u202ex\\x9b31mend");
  });

  it("--verbose: the line per request quotes the server's x-request-id sanitized", async () => {
    const { env } = await hostile("control");
    const run = await runCli(["search", "--output", "json", "--verbose"], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^GET \/api\/v2\/channels\/conversations attempt 1: 200, request id r-\\x9b31m in \d+ ms\n$/);
  });

  it("a 10 MB text is one table line of at most 200 characters in its last cell", async () => {
    const { env } = await hostile("large-text");
    const run = await runCli(["search", "--output", "table"], env);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    for (const line of lines) expect([...line].length).toBeLessThan(600);
    expect(lines[2]).toMatch(/ x{199}…$/);
  });

  it("triggers --output table, and fire's error line quoting the trigger ids and the variable codes", async () => {
    const { env } = await hostile("control");
    const table = await runCli(["triggers", "bot-1", "--output", "table"], env);
    expect(table.code).toBe(0);
    expect(table.stdout).not.toMatch(raw);
    expect(table.stdout).toContain("orderhi\\x1b[2J");
    const unknown = await runCli(["fire", "--agent-stage-id", "bot-1", "--external-event-id", "nope", "--conversation-id", "c-1", "--yes"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).not.toMatch(raw);
    expect(unknown.stderr).toMatch(/^error: --external-event-id: bot bot-1 has no trigger "nope"; expected one of: orderhi\\x1b\[2Jx.*end\n$/);
    const badVar = await runCli(
      ["fire", "--agent-stage-id", "bot-1", "--external-event-id", `order${hostileText}`, "--conversation-id", "c-1", "--var", "x=1", "--yes"],
      env,
    );
    expect(badVar.code).toBe(2);
    expect(badVar.stderr).not.toMatch(raw);
    expect(badVar.stderr).toContain("(the trigger's variables: codehi\\x1b[2J");
    expect(badVar.stderr.split("\n")).toHaveLength(2);
  });

  it("check through the CLI under GITHUB_ACTIONS=true: no raw control character, no line of the server's starting a workflow command", async () => {
    const { server } = await hostile("workflow-commands");
    const run = await runCli(["check", "--base-url", server.url, "--max-requests", "30", "--rate", "0"], {
      BOT_CONVERSATION_TOKEN: secret,
      GITHUB_ACTIONS: "true",
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("Received: 200 not json\\r ::error");
    expect(run.stdout).not.toMatch(raw);
    for (const line of run.stdout.split("\n").filter((each) => /^\s*::/.test(each))) expect(line).toMatch(/^::(error|notice|warning) title=[^:]*::/);
  });
});

describe("CSV follows OWASP's CSV-injection advice", () => {
  it("a cell starting with = + - @, TAB or CR gets a leading '; --csv-raw writes it as sent", async () => {
    const { env } = await hostile("formulas");
    const safe = parse((await runCli(["search", "--output", "csv"], env)).stdout, { columns: true, relax_column_count: false }) as Record<string, string>[];
    expect(safe.map((row) => row["latestMessageText"])).toEqual(formulas.map((text) => `'${text}`));
    // Fields that start with nothing dangerous are left alone.
    expect(safe.map((row) => row["id"])).toEqual(formulas.map((_text, index) => `c-${index}`));
    const rawRows = parse((await runCli(["search", "--output", "csv", "--csv-raw"], env)).stdout, { columns: true }) as Record<string, string>[];
    expect(rawRows.map((row) => row["latestMessageText"])).toEqual([...formulas]);
  });

  it("--csv-raw's help says why it is unsafe", async () => {
    const help = await runCli(["search", "--help"], {});
    expect(help.stdout.replace(/\s+/g, " ")).toContain(
      "--csv-raw CSV cells exactly as sent; unsafe: a cell starting with = + - @ (or TAB, CR) runs as a formula when a spreadsheet opens the file",
    );
  });
});

describe("every read is bounded", () => {
  it("search against an endless body: a clear error naming the limit, peak RSS under 300 MiB", { timeout: heavyTestTimeoutMs }, async () => {
    const { env } = await hostile("endless-body");
    const run = await runBinMeasured(["search"], env);
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toBe("error: GET /api/v2/channels/conversations answered 200, its body over maxResponseBytes (16777216 bytes)\n");
    expect(run.peakRss).toBeGreaterThan(0);
    expect(run.peakRss).toBeLessThan(maxPeakRss);
  });

  it("check against an endless body: a clear error naming the limit, peak RSS under 300 MiB", { timeout: heavyTestTimeoutMs }, async () => {
    const { server } = await hostile("endless-body");
    const run = await runBinMeasured(["check", "--base-url", server.url, "--max-requests", "30", "--rate", "0"], { BOT_CONVERSATION_TOKEN: secret });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `error: The server at ${server.url} cannot be read: GET /api/v2/channels/conversations answered 200, its body over maxResponseBytes (16777216 bytes)\n`,
    );
    expect(run.peakRss).toBeLessThan(maxPeakRss);
  });

  it("mcp against an endless body: a tool error naming the limit, peak RSS under 300 MiB", { timeout: heavyTestTimeoutMs }, async () => {
    const { server } = await hostile("endless-body");
    const rss = await peakRssFile();
    const mcp = await connectMcp(server.url, [], { PEAK_RSS_FILE: rss.file }, ["--import", peakRssPreload]);
    const result = (await mcp.callTool({ name: "search_conversations", arguments: {} })) as ToolResult;
    expect(result).toMatchObject({
      isError: true,
      content: [{ text: "GET /api/v2/channels/conversations answered 200, its body over maxResponseBytes (16777216 bytes)" }],
    });
    await mcp.close();
    expect(await rss.read()).toBeLessThan(maxPeakRss);
  });

  it("search --all against paging that never ends: the announced 3 conversations, then a paging error", async () => {
    const { env, server } = await hostile("endless-paging");
    const run = await runCli(["search", "--all"], env);
    expect(run.code).toBe(1);
    expect(run.stdout.trimEnd().split("\n")).toHaveLength(3);
    expect(run.stderr).toBe("error: totalItemCount 3 passed: 6 items read\n");
    expect(server.requests).toHaveLength(2);
  });

  it("--max-pages: the pages asked for are written, then an error says more were left", async () => {
    const run = await runCli(["search", "--all", "--page-size", "4", "--max-pages", "2"], envOf(sandbox()));
    expect(run.code).toBe(1);
    expect(run.stdout.trimEnd().split("\n")).toHaveLength(8);
    expect(run.stderr).toBe("error: --max-pages 2 reached and the server says more pages follow; raise --max-pages to read them\n");
    const all = await runCli(["search", "--all", "--page-size", "10", "--max-pages", "3"], envOf(sandbox()));
    expect(all).toMatchObject({ code: 0, stderr: "" });
    expect(all.stdout.trimEnd().split("\n")).toHaveLength(30);
  });
});

describe("the token never leaves through our output", () => {
  it("a token the server echoes in records is redacted in every format, and in the table", async () => {
    const { env } = await hostile("echo-token");
    for (const output of ["ndjson", "json", "csv", "table"]) {
      const run = await runCli(["search", "--output", output], env);
      expect(run.code).toBe(0);
      expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
      expect(run.stdout).toContain("your token is [redacted]");
    }
    const triggers = await runCli(["triggers", "bot-1"], env);
    expect(triggers.stdout).toContain('"externalEventName":"token [redacted]"');
    expect(triggers.stdout).not.toContain(secret);
    const fired = await runCli(["fire", "--agent-stage-id", "bot-1", "--external-event-id", "order-paid", "--conversation-id", "c-1", "--yes"], env);
    expect(fired.code).toBe(1);
    expect(fired.stderr).not.toContain(secret);
  });

  it("credentials in --base-url are refused without quoting them, by search and by check, and nothing is sent", async () => {
    const { server } = await hostile("echo-token");
    const withCredentials = server.url.replace("http://", "http://user:pass-SECRET-9@");
    const search = await runCli(["search", "--base-url", withCredentials], { BOT_CONVERSATION_TOKEN: secret });
    const check = await runCli(["check", "--base-url", withCredentials], { BOT_CONVERSATION_TOKEN: secret });
    for (const run of [search, check]) {
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^error: (--base-url|baseUrl): expected .*\n$/);
      expect(run.stderr).not.toContain("pass-SECRET-9");
    }
    expect(server.requests).toEqual([]);
  });

  it("--token-file is read one way by search and check: one line, trimmed; a second line, a FIFO or a huge file refused the same way", async () => {
    const { server, env } = await hostile("echo-token");
    const directory = await mkdtemp(join(tmpdir(), "cli-token-"));
    const twoLines = join(directory, "two");
    await writeFile(twoLines, `${secret}\nsecond\n`);
    const fifo = join(directory, "fifo");
    execFileSync("mkfifo", [fifo]);
    const huge = join(directory, "huge");
    await writeFile(huge, "");
    await truncate(huge, 2 ** 30);
    const refusals = [
      [twoLines, "the file holds 2 lines; expected one line holding the access token (nothing else)"],
      [fifo, `is a FIFO (a named pipe); expected a regular file of at most ${maxTokenFileBytes} bytes holding the access token`],
      [huge, `holds ${2 ** 30} bytes; expected a regular file of at most ${maxTokenFileBytes} bytes holding the access token`],
    ] as const;
    for (const [file, reason] of refusals) {
      const expected = `error: --token-file ${file}: ${reason}\n`;
      // No writer ever opens the FIFO: a read that waited on it would never end.
      const search = await runCli(["search", "--base-url", server.url, "--token-file", file], {});
      const check = await runCli(["check", "--base-url", server.url, "--token-file", file], {});
      expect([search.code, check.code]).toEqual([2, 2]);
      expect([search.stderr, check.stderr]).toEqual([expected, expected]);
    }
    expect(server.requests).toEqual([]);
    const oneLine = join(directory, "one");
    await writeFile(oneLine, `  ${secret}\r\n`);
    expect((await runCli(["search", "--token-file", oneLine], { BOT_CONVERSATION_BASE_URL: env["BOT_CONVERSATION_BASE_URL"] })).code).toBe(0);
    expect(server.requests.at(-1)?.headers["x-token"]).toBe(secret);
  });
});

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text?: string }[] };

/** The SDK's own client, talking to `bot-conversation mcp` over stdio, the tools listed. */
async function connectMcp(baseUrl: string, flags: string[] = [], env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeFlags, binPath, "mcp", "--base-url", baseUrl, ...flags],
    env: { BOT_CONVERSATION_TOKEN: secret, ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "cli-hostile-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  // Listed first, as a host does: the SDK's client then checks each structured result against its tool's outputSchema.
  await client.listTools();
  return client;
}

describe("mcp against a hostile server", () => {
  it("every tool's description says results hold third parties' text, never instructions; the names are kept", async () => {
    const { server } = await hostile("large-text");
    const { tools } = await (await connectMcp(server.url, ["--allow-fire"])).listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["search_conversations", "list_external_event_triggers", "fire_external_event"]);
    for (const tool of tools) expect(tool.description).toContain(thirdPartyNotice);
  });

  it("a 10 MiB text: one copy, within the documented size, the string cut with a note of how much was left out", async () => {
    const { server } = await hostile("large-text");
    const mcp = await connectMcp(server.url);
    const result = (await mcp.callTool({ name: "search_conversations", arguments: {} })) as ToolResult;
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as { items: { id: string; latestMessageText: string }[]; truncated?: unknown };
    expect(Buffer.byteLength(JSON.stringify(structured))).toBeLessThanOrEqual(maxResultBytes);
    expect(structured.items.map((item) => item.id)).toEqual(["c-injection", "c-large"]);
    expect(structured.items[1]?.latestMessageText).toMatch(
      new RegExp(
        `^x{${maxStringCharacters}}… \\[cut: ${10 * 1024 * 1024 - maxStringCharacters} more characters; the whole record: bot-conversation search --output ndjson\\]$`,
      ),
    );
    expect(structured.truncated).toBeUndefined();
    // One copy: the text content is a short summary, not the JSON again, and holds none of the third party's text.
    expect(result.content).toEqual([{ type: "text", text: "2 conversations of 2 matching (page 0). They are in the structured content." }]);
    expect(JSON.stringify(result.content)).not.toContain(agentInjection);
  });

  it("a result over the size: trailing items left out, with a note saying how to get them", async () => {
    const { server } = await hostile("large-text");
    const mcp = await connectMcp(server.url);
    const result = (await mcp.callTool({ name: "search_conversations", arguments: { pageSize: 60 } })) as ToolResult;
    const structured = result.structuredContent as { items: { id: string }[]; truncated: { kept: number; omitted: number; note: string } };
    expect(Buffer.byteLength(JSON.stringify(structured))).toBeLessThanOrEqual(maxResultBytes);
    const { kept, omitted, note } = structured.truncated;
    expect(kept).toBeGreaterThan(10);
    expect(kept + omitted).toBe(60);
    expect(structured.items.map((item) => item.id)).toEqual(Array.from({ length: kept }, (_, index) => `c-${index}`));
    expect(note).toBe(
      `${omitted} of 60 items left out to keep the result within ${maxResultBytes} bytes. Search again with the same filters and pageSize ${kept} (smaller pages; then follow nextCursor), or read every record whole with the CLI: bot-conversation search --output ndjson.`,
    );
    expect(result.content[0]?.text).toBe(`${kept} conversations of 60 matching (page 0). They are in the structured content. ${note}`);
  });

  it("a hand-made cursor with extra parameters (x-token, foo) is refused and nothing is sent", async () => {
    const { server } = await hostile("echo-token");
    const mcp = await connectMcp(server.url);
    for (const [extra, named] of [
      [{ "x-token": "other" }, '"x-token"'],
      [{ foo: "1" }, '"foo"'],
    ] as const) {
      const cursor = Buffer.from(JSON.stringify({ pageIndex: 1, ...extra })).toString("base64url");
      const result = (await mcp.callTool({ name: "search_conversations", arguments: { cursor } })) as ToolResult;
      expect(result).toMatchObject({
        isError: true,
        content: [{ text: `cursor: expected the nextCursor of a previous search_conversations result; it holds ${named}, not parameters of the search` }],
      });
    }
    const badValue = Buffer.from(JSON.stringify({ pageIndex: 1, status: "Nope" })).toString("base64url");
    const refused = (await mcp.callTool({ name: "search_conversations", arguments: { cursor: badValue } })) as ToolResult;
    expect(refused.content[0]?.text).toBe(
      'cursor: expected the nextCursor of a previous search_conversations result; its status: expected one of Active, Closed, Operator; got "Nope"',
    );
    expect(server.requests).toEqual([]);
  });

  it("fire_external_event with both conversation identifiers is refused and nothing is sent", async () => {
    const { server } = await hostile("echo-token");
    const mcp = await connectMcp(server.url, ["--allow-fire"]);
    const result = (await mcp.callTool({
      name: "fire_external_event",
      arguments: { agentStageId: "bot-1", externalEventId: "order-paid", conversationId: "c-1", externalConversationId: "s-1|livechat" },
    })) as ToolResult;
    expect(result).toMatchObject({ isError: true, content: [{ text: "conversationId, externalConversationId: expected one of them, not both" }] });
    expect(server.requests).toEqual([]);
  });

  it("a token the server echoes in data is redacted from results and errors", async () => {
    const { server } = await hostile("echo-token");
    const mcp = await connectMcp(server.url, ["--allow-fire"]);
    const search = (await mcp.callTool({ name: "search_conversations", arguments: {} })) as ToolResult;
    const triggers = (await mcp.callTool({ name: "list_external_event_triggers", arguments: { agentStageId: "bot-1" } })) as ToolResult;
    const fire = (await mcp.callTool({
      name: "fire_external_event",
      arguments: { agentStageId: "bot-1", externalEventId: "order-paid", conversationId: "c-1" },
    })) as ToolResult;
    expect(JSON.stringify(search.structuredContent)).toContain("your token is [redacted]");
    expect(fire.isError).toBe(true);
    for (const result of [search, triggers, fire]) expect(JSON.stringify(result)).not.toContain(secret);
  });
});
