/**
 * The NDJSON export writes each record from the page text the client read (the pager hands it over),
 * not serialised again; a page that could hide a secret from a plain search of its text is serialised
 * and redacted as before. Against a real HTTP server on loopback serving page texts a sandbox would not write.
 */
import { createServer } from "node:http";
import { conversation, page } from "@bot-conversation/test-support/hostile-server";
import { type LoopbackServer, listenOnLoopback } from "@bot-conversation/test-support/loopback";
import { afterEach, describe, expect, it } from "vitest";
import { bracesAreJson, objectCount, objectsOfArray } from "../src/output/json-text.ts";
import { holdsSecret } from "../src/output/writers.ts";
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

/** How many times `character` stands in `text`. */
const count = (text: string, character: string) => text.split(character).length - 1;

/** `bracesAreJson` of a whole text: its braces counted. */
const textBracesAreJson = (text: string, objects: number) => bracesAreJson(count(text, "{"), count(text, "}"), objects);

describe("bracesAreJson: the records cut from brace to brace only when no brace stands in a string", () => {
  it.each([
    ['{"items":[{"a":1} , {"b":{"c":[{},{"d":"x,y]"}]}}],"n":2}', true, "nested objects and arrays, a bracket and a comma in a string"],
    ['{ "x" : [ {} ] , "items" : [ ] }', true, "an object outside the array, no items"],
    ['{"items":[{"b":"x}"}]}', false, "a closing brace in a string"],
    ['{"items":[{"b":"{"}]}', false, "an opening brace in a string"],
    ['{"items":[{"a":{},"a":1}]}', false, "an object a repeated key replaced"],
    ['{"items":[{"a":{},"a":"}"}]}', false, "a replaced object and a brace in a string"],
    ['{"items":[{"b":"{}"},{"c":"}{"}]}', false, "braces in strings, balanced and not"],
    ['{"items":[{"b":1}],"note":"{"}', false, "a brace in a string after the array"],
  ])("%s: %s (%s)", (text, expected) => {
    const parsed = JSON.parse(text) as unknown;
    expect(textBracesAreJson(text, objectCount(parsed))).toBe(expected);
    // Cut from brace to brace (the braces JSON's own) or scanned (not): the scan's records either way.
    expect(objectsOfArray(text, "items", objectCount(parsed))).toEqual(objectsOfArray(text, "items"));
  });

  it("objectCount counts every object at any depth, the parser's depth included", () => {
    expect(objectCount(JSON.parse('{"a":[{},{"b":{}}],"c":null,"d":"{}"}'))).toBe(4);
    const depth = 50_000;
    expect(objectCount(JSON.parse(`${"[".repeat(depth)}{}${"]".repeat(depth)}`))).toBe(1);
  });

  it("generated pages: cut from brace to brace, each record's text is the scan's, whenever the braces are the JSON's own", () => {
    // A seeded generator (xorshift): records of nested objects, arrays, numbers as written (1.50) and strings
    // holding braces, brackets, quotes, backslashes and commas, laid out with white space or none.
    let state = 2026;
    const next = (below: number) => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) % below;
    };
    const space = () => [" ", "", "", "\t"][next(4)]!;
    const text = () => JSON.stringify(Array.from({ length: next(6) }, () => 'ab{}[],:"\\é'[next(12)]).join(""));
    const value = (depth: number): string => {
      const kind = next(depth > 3 ? 3 : 5);
      if (kind === 0) return ["1.50", "-2", "true", "null"][next(4)]!;
      if (kind === 1 || kind === 2) return text();
      const parts = Array.from({ length: next(4) }, (_, index) =>
        kind === 3 ? `${space()}"k${index}"${space()}:${space()}${value(depth + 1)}` : value(depth + 1),
      );
      return kind === 3 ? `{${parts.join(",")}${space()}}` : `[${parts.join(`,${space()}`)}]`;
    };
    const record = () => `{"id":${text()},${space()}"v":${value(1)}}`;
    let cutByBraces = 0;
    for (let round = 0; round < 400; round++) {
      const items = Array.from({ length: next(5) }, record);
      const page = `{"hasMore":false,${space()}"items":${space()}[${space()}${items.join(`${space()},${space()}`)}${space()}],"n":${text()}}`;
      const parsed = JSON.parse(page) as { items: unknown[] };
      expect(objectsOfArray(page, "items")).toEqual(items);
      if (textBracesAreJson(page, objectCount(parsed.items) + 1)) cutByBraces++;
      expect(objectsOfArray(page, "items", objectCount(parsed.items) + 1)).toEqual(items);
    }
    // Both ways were taken.
    expect(cutByBraces).toBeGreaterThan(40);
    expect(cutByBraces).toBeLessThan(360);
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

  it("a page whose braces are all the JSON's own (cut from brace to brace): each line is the record's text as the server wrote it", async () => {
    const plain = ['{"id":"c-1","members":[{"id":"u","name":"a, b]"} , {"id":"v"}],"messagesCount":1.50}', '{ "id" : "c-2", "channelData": {"x":[{}]} }'];
    const env = await serving(pageText(plain));
    const run = await runCli(["search", "--all", "--output", "ndjson"], env);
    expect(run.stdout).toBe(`${plain.join("\n")}\n`);
  });

  it.each([
    ["ASCII", ['{"id":"c-1","messagesCount":1.50,"members":[{"id":"u","name":"a, b]"}]}', '{"id":"c-2","channelData":{"x":[{}]}}', '{"id":"c-3"}']],
    ["not ASCII", ['{"id":"c-1","members":[{"id":"u","name":"Ünïcode ✓"}]}', '{"id":"c-2","latestMessageText":"日本語, 😀"}', '{"id":"c-3"}']],
    ["Latin-1, not ASCII", ['{"id":"c-1","latestMessageText":"café, 10 €"}', '{"id":"c-2","latestMessageText":"naïve ü ÿ"}']],
  ])("records one comma apart, %s: each line is the record's text as the server wrote it, the commas between them line feeds", async (_text, compact) => {
    const text = JSON.stringify(page(compact.map(() => ({})))).replace(/"items":\[[^\]]*\]/, `"items":[${compact.join(",")}]`);
    expect(text).toContain(compact.join(","));
    const env = await serving(text);
    for (const argv of [["search"], ["search", "--all"]]) {
      const run = await runCli([...argv, "--output", "ndjson"], env);
      expect(run.stdout).toBe(`${compact.join("\n")}\n`);
    }
  });

  it("pages of records one comma apart, in turn: every page's lines as the server wrote them, in order", async () => {
    const pages = [
      ['{"id":"p0-a","latestMessageText":"the first page, its longest record"}', '{"id":"p0-b","n":1}', '{"id":"p0-c","n":2}'],
      ['{"id":"p1-a"}', '{"id":"p1-b","members":[{"id":"u"},{"id":"v"}]}'],
      ['{"id":"p2-a","n":3}'],
    ];
    const total = pages.flat().length;
    const server = await listenOnLoopback(
      createServer((request, response) => {
        const index = Number(new URL(request.url!, "http://127.0.0.1").searchParams.get("pageIndex") ?? 0);
        const envelope = page(
          pages[index]!.map(() => ({})),
          index,
          { hasMore: index < pages.length - 1, totalItemCount: total, totalPageCount: pages.length },
        );
        response
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify(envelope).replace(/"items":\[[^\]]*\]/, `"items":[${pages[index]!.join(",")}]`));
      }),
    );
    servers.push(server);
    const run = await runCli(["search", "--all", "--output", "ndjson"], { BOT_CONVERSATION_BASE_URL: server.url, BOT_CONVERSATION_TOKEN: secret });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toBe(`${pages.flat().join("\n")}\n`);
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

describe("holdsSecret: a secret found wherever it stands, looked for by its rarest character", () => {
  const filler = "sssss-aaaa-tttt ".repeat(400);
  it.each([
    ["at the start", `${secret}${filler}`, [secret], true],
    ["at the end", `${filler}${secret}`, [secret], true],
    ["past the sample", `${filler}${filler}x${secret}`, [secret], true],
    ["after a near miss", `${filler}tok-SECRET-export-7tok-SECRET-export-77`, [secret], true],
    ["its characters all common in the text", `${filler}sat-ts-sat`, ["sat-ts-sat"], true],
    ["one character", "abc", ["c"], true],
    ["the second of two", `${filler}b-secret`, ["a-secret", "b-secret"], true],
    ["absent", filler, [secret], false],
    ["longer than the text", "tok", [secret], false],
    ["cut at the text's end", `${filler}${secret.slice(0, -1)}`, [secret], false],
    ["empty secrets only", filler, ["", ""], false],
  ])("%s", (_where, text, secrets, expected) => {
    expect(holdsSecret(text, secrets)).toBe(expected);
    // The plain search agrees.
    expect(secrets.some((each) => each !== "" && text.includes(each))).toBe(expected);
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
