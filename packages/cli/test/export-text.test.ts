/**
 * The NDJSON export writes each record from the page text the client read (the pager hands it over),
 * not serialised again; a page that could hide a secret from a plain search of its text is serialised
 * and redacted as before. Against a real HTTP server on loopback serving page texts a sandbox would not write.
 */
import { createServer } from "node:http";
import { conversation, page } from "@bot-conversation/test-support/hostile-server";
import { type LoopbackServer, listenOnLoopback } from "@bot-conversation/test-support/loopback";
import { afterEach, describe, expect, it } from "vitest";
import { objectsOfArray } from "../src/output/json-text.ts";
import { runCli } from "./support/cli.ts";

const secret = "tok-SECRET-export-77";
const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server answering every search with `text`, as it is. */
async function serving(text: string): Promise<NodeJS.ProcessEnv> {
  const server = await listenOnLoopback(createServer((_request, response) => response.writeHead(200, { "content-type": "application/json" }).end(text)));
  servers.push(server);
  return { BOT_CONVERSATION_BASE_URL: server.url, BOT_CONVERSATION_TOKEN: secret };
}

/** A page's JSON text with `items` written as the given texts, the envelope around them. */
const pageText = (items: readonly string[], layout = "") =>
  JSON.stringify(page(items.map(() => ({}))), null, layout || undefined).replace(
    /"items":\s*\[[^\]]*\]/,
    `"items": [${items.join(`,${layout ? "\n" : " "}`)}]`,
  );

describe("objectsOfArray: each record's text cut from the page's text", () => {
  it.each([
    ['{"items":[{"a":1},{"b":"x\\"}{]"}],"hasMore":false}', ['{"a":1}', '{"b":"x\\"}{]"}']],
    ['{ "hasMore": false, "items" : [ {"a":[{"c":1}]} , {"items":[1]} ] }', ['{"a":[{"c":1}]}', '{"items":[1]}']],
    ['{"x":"\\\\","items":[{"q":"\\\\\\""}]}', ['{"q":"\\\\\\""}']],
    ['{"items":[]}', []],
  ])("%s", (text, expected) => {
    expect(objectsOfArray(text, "items")).toEqual(expected);
    expect(objectsOfArray(text, "items")?.map((each) => JSON.parse(each) as unknown)).toEqual((JSON.parse(text) as { items: unknown[] }).items);
  });

  it.each([
    ['{"items":[1,2]}', "numbers"],
    ['{"items":["a"]}', "a string"],
    ['{"items":[{}],"items":[{}]}', "the key twice (the parser keeps the last)"],
    ['{"x":{"items":[{"a":1}]}}', "no items at the top"],
    ['{"items":{}}', "not an array"],
  ])("%s: none (%s)", (text) => {
    expect(objectsOfArray(text, "items")).toBeUndefined();
  });
});

describe("search --output ndjson writes the records from the text read", () => {
  const records = [
    '{"id":"c-1","latestMessageText":"a \\"quoted\\" } ] { [ text","messagesCount":1.50,"members":[{"id":"u","name":"Ünïcode ✓"}]}',
    '{ "id" : "c-2", "items": [ {"nested": true} ], "latestMessageText": "tab\\there" }',
  ];

  it("one page and --all: each line is the record's text as the server wrote it", async () => {
    const env = await serving(pageText(records));
    for (const argv of [["search"], ["search", "--all"]]) {
      const run = await runCli([...argv, "--output", "ndjson"], env);
      expect(run.stderr).toBe("");
      // Written from the text: `1.50` and the spaces kept, which serialising the parsed record would not.
      expect(run.stdout).toBe(`${records.join("\n")}\n`);
    }
  });

  it("--limit (a part of a page) and a page laid out over lines are serialised: one record a line, as JSON.stringify writes it", async () => {
    for (const [env, argv] of [
      [await serving(pageText(records)), ["search", "--limit", "1"]],
      [await serving(pageText(records, "  ")), ["search", "--all"]],
    ] as const) {
      const run = await runCli([...argv, "--output", "ndjson"], env);
      const expected = records.slice(0, (argv as readonly string[]).includes("--limit") ? 1 : 2).map((text) => `${JSON.stringify(JSON.parse(text))}\n`);
      expect(run.stdout).toBe(expected.join(""));
    }
  });
});

describe("redaction holds on the text path", () => {
  it.each([
    ["as it is", secret],
    ["with each character a \\u escape", [...secret].map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")],
    ["with one character a \\u escape", "tok\\u002dSECRET-export-77"],
  ])("a token echoed in a record %s never reaches the output", async (_how, spelled) => {
    const echoed = JSON.stringify(conversation("c-1", "x")).replace('"latestMessageText":"x"', `"latestMessageText":"your token is ${spelled}"`);
    const env = await serving(pageText([echoed, JSON.stringify(conversation("c-2", "clean"))]));
    const run = await runCli(["search", "--all", "--output", "ndjson"], env);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    // Decoded, as any reader of the file would: no token in any value.
    for (const line of lines) expect(JSON.stringify(JSON.parse(line))).not.toContain(secret);
    expect((JSON.parse(lines[0]!) as { latestMessageText: string }).latestMessageText).toBe("your token is [redacted]");
  });
});
