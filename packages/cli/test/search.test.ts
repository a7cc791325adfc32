import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBotConversationClient } from "@bot-conversation/client";
import { documentValidator } from "@bot-conversation/openapi/ajv";
import type { ConversationSummary, SearchConversationsQuery } from "@bot-conversation/types";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { description } from "../src/description.ts";
import { cellText } from "../src/output/columns.ts";
import { conversationColumns } from "../src/search.ts";
import { runBinToFile, runCli } from "./support/cli.ts";
import { envOf, token, useCountingServer, useSandbox } from "./support/sandbox.ts";

const sandbox = useSandbox({ seed: "cli-search", conversations: 200 });
const bundle = documentValidator(description);

/** Every conversation of a search, walked with the client's pager. */
async function walk(query: SearchConversationsQuery): Promise<ConversationSummary[]> {
  const client = createBotConversationClient({ baseUrl: sandbox().url, token });
  const all: ConversationSummary[] = [];
  for await (const conversation of client.iterateConversations(query)) all.push(conversation);
  return all;
}

/** A file holding the given token text, for --token-file. */
async function tokenFile(text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), "cli-token-")), "token");
  await writeFile(file, text);
  return file;
}

const lines = (text: string) =>
  text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ConversationSummary);

describe("search", () => {
  it("--all streams NDJSON when piped: the same conversations, in order, as a walk with the client, each line valid against the description", async () => {
    const run = await runCli(["search", "--all", "--page-size", "7"], envOf(sandbox()));
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const records = lines(run.stdout);
    const walked = await walk({ pageSize: 7 });
    expect(walked.length).toBe(200);
    expect(records.map((record) => record.id)).toEqual(walked.map((conversation) => conversation.id));
    for (const record of records) expect(bundle.problemsOf({ $ref: "#/components/schemas/ConversationSummary" }, record)).toEqual([]);
  });

  it("--all into a file (stdout a regular file, as `> export.ndjson` makes it) writes every conversation in the walk's order, in NDJSON, JSON and CSV", async () => {
    const directory = await mkdtemp(join(tmpdir(), "cli-export-"));
    // Pages of 60 records are longer than one write (about 32 KiB): each page is written in parts.
    const walked = (await walk({ pageSize: 60 })).map((conversation) => conversation.id);
    const exported = async (output: string) => {
      const file = join(directory, `export.${output}`);
      expect(await runBinToFile(["search", "--all", "--page-size", "60", "--output", output], envOf(sandbox()), file)).toEqual({ code: 0, stderr: "" });
      return readFile(file, "utf8");
    };
    const ndjson = lines(await exported("ndjson"));
    expect(ndjson.map((record) => record.id)).toEqual(walked);
    for (const record of ndjson) expect(bundle.problemsOf({ $ref: "#/components/schemas/ConversationSummary" }, record)).toEqual([]);
    expect((JSON.parse(await exported("json")) as ConversationSummary[]).map((record) => record.id)).toEqual(walked);
    const rows = parse(await exported("csv"), { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => row["id"])).toEqual(walked);
  });

  it("every filter is a flag; counts equal the client's walk with the same query", async () => {
    const query = { status: "Active", channelId: "directline", startFromDate: "2026-01-01T00:00:00Z", latestMessageToDate: "2027-01-01T00:00:00Z" } as const;
    const run = await runCli(
      [
        "search",
        "--all",
        "--status",
        "Active",
        "--channel-id",
        "directline",
        "--start-from-date",
        query.startFromDate,
        "--latest-message-to-date",
        query.latestMessageToDate,
        "--page-size",
        "5",
      ],
      envOf(sandbox()),
    );
    expect(run.code).toBe(0);
    const walked = await walk({ ...query, pageSize: 5 });
    expect(walked.length).toBeGreaterThan(0);
    expect(walked.length).toBeLessThan(200);
    expect(lines(run.stdout).map((record) => record.id)).toEqual(walked.map((conversation) => conversation.id));
  });

  it("without --all prints one page; --limit stops early across pages", async () => {
    expect(lines((await runCli(["search", "--page-size", "3"], envOf(sandbox()))).stdout)).toHaveLength(3);
    const limited = await runCli(["search", "--limit", "11", "--page-size", "4"], envOf(sandbox()));
    expect(lines(limited.stdout).map((record) => record.id)).toEqual((await walk({ pageSize: 4 })).slice(0, 11).map((conversation) => conversation.id));
  });

  it("--output json is one array of the same records", async () => {
    const run = await runCli(["search", "--all", "--output", "json", "--page-size", "50"], envOf(sandbox()));
    expect(JSON.parse(run.stdout)).toEqual(await walk({ pageSize: 50 }));
    expect(
      JSON.parse((await runCli(["search", "--output", "json", "--status", "Active", "--channel-id", "no-such-channel"], envOf(sandbox()))).stdout),
    ).toEqual([]);
  });

  it("--output csv parses back: the description's columns, nested objects by dotted path, arrays as JSON", async () => {
    const run = await runCli(["search", "--all", "--output", "csv", "--page-size", "30"], envOf(sandbox()));
    const [header, ...rows] = parse(run.stdout) as string[][];
    expect(header).toEqual(conversationColumns.csv.map((column) => column.header));
    expect(header).toContain("channelData.platform.session.id");
    const walked = await walk({ pageSize: 30 });
    expect(rows).toHaveLength(walked.length);
    rows.forEach((row, index) => {
      const conversation = walked[index] as ConversationSummary;
      expect(row).toEqual(conversationColumns.csv.map((column) => cellText(column.get(conversation))));
      expect(JSON.parse(row[header?.indexOf("members") ?? -1] ?? "")).toEqual(conversation.members);
      expect(row[header?.indexOf("messagesCount") ?? -1]).toBe(String(conversation.messagesCount));
    });
    const withPlatform = walked.findIndex((conversation) => conversation.channelData !== null);
    expect(withPlatform).toBeGreaterThanOrEqual(0);
    expect(rows[withPlatform]?.[header?.indexOf("channelData.platform.session.id") ?? -1]).toBe(walked[withPlatform]?.channelData?.platform.session.id);
  });

  it("--output table prints a header and a row per conversation", async () => {
    const run = await runCli(["search", "--page-size", "4", "--output", "table"], envOf(sandbox()));
    const [header, ...rows] = run.stdout.trimEnd().split("\n");
    expect(header).toMatch(/^ID\s+STATUS\s+CHANNELID\s+MESSAGESCOUNT/);
    expect(rows).toHaveLength(4);
  });
});

describe("search: bad input is one line naming the flag and what was expected, exit 2, nothing sent", () => {
  const counting = useCountingServer();
  const cases: [string, string[], RegExp][] = [
    ["a non-integer page size", ["--page-size", "ten"], /^error: --page-size: expected an integer of at least 1; got "ten"$/],
    ["a page size of 0", ["--page-size", "0"], /^error: --page-size: expected an integer of at least 1; got "0"$/],
    ["a negative page index", ["--page-index", "-1"], /^error: --page-index: expected an integer of at least 0; got "-1"$/],
    ["a bad date", ["--start-from-date", "yesterday"], /^error: --start-from-date: expected an ISO 8601 date-time such as .+; got "yesterday"$/],
    ["a date without a time", ["--latest-message-to-date", "2026-11-20"], /^error: --latest-message-to-date: expected an ISO 8601 date-time/],
    // The client's date rule (parseDateTime), not ajv-formats' looser one: each of these passed the flag check and was sent.
    [
      "an hour-only offset",
      ["--start-from-date", "2025-01-01T10:00:00+03"],
      /^error: --start-from-date: expected an ISO 8601 date-time such as .+; got "2025-01-01T10:00:00\+03"$/,
    ],
    [
      "a leap second",
      ["--start-from-date", "2025-01-01T10:00:60Z"],
      /^error: --start-from-date: expected an ISO 8601 date-time such as .+; got "2025-01-01T10:00:60Z"$/,
    ],
    [
      "a space for T",
      ["--start-to-date", "2025-01-01 10:00:00Z"],
      /^error: --start-to-date: expected an ISO 8601 date-time such as .+; got "2025-01-01 10:00:00Z"$/,
    ],
    ["an unknown status", ["--status", "Open"], /^error: --status: expected one of Active, Closed, Operator; got "Open"$/],
    ["an unknown flag", ["--stauts", "Active"], /^error: unknown option '--stauts' \(Did you mean --status\?\)$/],
    ["a bad limit", ["--limit", "1.5"], /^error: --limit: expected an integer of at least 1; got "1.5"$/],
    [
      "an unknown output",
      ["--output", "xml"],
      /^error: option '--output <format>' argument 'xml' is invalid\. Allowed choices are table, json, ndjson, csv\.$/,
    ],
  ];
  it.each(cases)("%s", async (_name, args, message) => {
    const run = await runCli(["search", ...args], { BOT_CONVERSATION_BASE_URL: counting.url(), BOT_CONVERSATION_TOKEN: token });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr.trimEnd()).toMatch(message);
    expect(counting.requests()).toBe(0);
  });

  it("a missing token or base URL", async () => {
    const noToken = await runCli(["search"], { BOT_CONVERSATION_BASE_URL: counting.url() });
    expect(noToken).toMatchObject({
      code: 2,
      stderr: "error: no token: pass --token-file <path> or --token <token>, or set BOT_CONVERSATION_TOKEN; expected the access token sent in X-Token\n",
    });
    const noUrl = await runCli(["search"], { BOT_CONVERSATION_TOKEN: token });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/^error: no base URL: pass --base-url <url> or set BOT_CONVERSATION_BASE_URL/);
    const missingFile = await runCli(["search", "--base-url", counting.url(), "--token-file", "/nonexistent/token"], {});
    expect(missingFile).toMatchObject({
      code: 2,
      stderr: "error: --token-file /nonexistent/token: cannot read it (ENOENT); expected a regular file of at most 4096 bytes holding the access token\n",
    });
    expect(counting.requests()).toBe(0);
  });
});

describe("search: the service's refusals", () => {
  it("a wrong token is one line with the server's detail, exit 1, the token never printed (not even with --verbose)", async () => {
    const wrong = "wrong-token-9c1d7e";
    const run = await runCli(["search", "--verbose"], { ...envOf(sandbox()), BOT_CONVERSATION_TOKEN: wrong });
    expect(run.code).toBe(1);
    const errorLines = run.stderr.split("\n").filter((line) => line.startsWith("error:"));
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toMatch(/answered 401/);
    expect(run.stderr).toMatch(/GET \/api\/v2\/channels\/conversations/);
    expect(run.stderr + run.stdout).not.toContain(wrong);
  });

  it("a wrong token from --token-file is never printed either", async () => {
    const wrong = "wrong-file-token-4e2a91";
    const file = await tokenFile(wrong);
    const run = await runCli(["search", "--verbose", "--base-url", sandbox().url, "--token-file", file], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/answered 401/);
    expect(run.stderr + run.stdout).not.toContain(wrong);
  });

  it("--token works as check's does (trimmed, wins over the variable); a wrong one is never printed", async () => {
    const run = await runCli(["search", "--page-size", "5", "--output", "json", "--base-url", sandbox().url, "--token", ` ${token} `], {
      BOT_CONVERSATION_TOKEN: "not-this-one",
    });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(run.stdout)).toHaveLength(5);
    const wrong = "wrong-flag-token-7d31c0";
    const refused = await runCli(["search", "--verbose", "--base-url", sandbox().url, "--token", wrong], {});
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/answered 401/);
    expect(refused.stderr + refused.stdout).not.toContain(wrong);
  });

  it("--token-file is read (and trimmed); --verbose traces each page without the token", async () => {
    const file = await tokenFile(`${token}\n`);
    const run = await runCli(["search", "--all", "--page-size", "100", "--verbose", "--base-url", sandbox().url, "--token-file", file], {});
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toHaveLength(200);
    const traces = run.stderr.split("\n").filter(Boolean);
    expect(traces.length).toBeGreaterThanOrEqual(2);
    // The sandbox answers each request with its own X-Request-Id (the one in its log line; the service documents none): each trace names it.
    for (const trace of traces) expect(trace).toMatch(/^GET \/api\/v2\/channels\/conversations attempt 1: 200, request id [0-9a-f-]{36} in \d+ ms$/);
    expect(new Set(traces.map((trace) => /request id (\S+)/.exec(trace)?.[1])).size).toBe(traces.length);
    expect(run.stderr).not.toContain(token);
  });
});
