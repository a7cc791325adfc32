import { describe, expect, it } from "vitest";
import { runCli } from "./support/cli.ts";
import { fixture } from "./support/fixture.ts";
import { envOf, firedEvents, useSandbox } from "./support/sandbox.ts";

const sandbox = useSandbox({ fixture });
const fire = ["fire", "--agent-stage-id", "bot-1", "--external-event-id", "order-paid", "--conversation-id", "c-1"];

describe("triggers", () => {
  it("lists a bot's triggers as NDJSON, JSON, CSV (parameters as JSON) and a table", async () => {
    const env = envOf(sandbox());
    const ndjson = await runCli(["triggers", "bot-1"], env);
    expect(ndjson.code).toBe(0);
    expect(
      ndjson.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(fixture.bots[0]?.triggers);
    expect(JSON.parse((await runCli(["triggers", "bot-1", "--output", "json"], env)).stdout)).toEqual(fixture.bots[0]?.triggers);
    const csv = (await runCli(["triggers", "bot-1", "--output", "csv"], env)).stdout.split("\r\n");
    expect(csv[0]).toBe("externalEventId,externalEventName,parameters");
    expect(csv[2]).toBe("callback-requested,Callback requested,{}");
    const table = (await runCli(["triggers", "bot-1", "--output", "table"], env)).stdout;
    expect(table).toMatch(/^EXTERNALEVENTID\s+EXTERNALEVENTNAME\s+VARIABLES\n/);
    expect(table).toContain("amount: Number, confirmed: Boolean, note: String, paidAt: DateTime, order: ComplexObject");
  });

  it("an unknown bot is one line with the service's detail, exit 1", async () => {
    const run = await runCli(["triggers", "bot-9"], envOf(sandbox()));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: GET \/api\/v1\/runtime\/simple\/external\/events\/\{agentStageId\} answered 404: .*bot-9.*\n$/);
  });
});

describe("fire", () => {
  it("types each --var by the trigger's definition and fires once", async () => {
    const run = await runCli(
      [
        ...fire,
        "--var",
        "amount=149.9",
        "--var",
        "confirmed=true",
        "--var",
        "note=42",
        "--var",
        "paidAt=2026-11-20T10:00:00+03:00",
        "--var",
        'order={"id":7}',
        "--yes",
      ],
      envOf(sandbox()),
    );
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const payload = { amount: 149.9, confirmed: true, note: "42", paidAt: "2026-11-20T10:00:00+03:00", order: { id: 7 } };
    expect(JSON.parse(run.stdout)).toEqual({ fired: true, externalEventId: "order-paid", conversationId: "c-1", externalEventPayload: payload });
    const fired = await firedEvents(sandbox());
    expect(fired.at(-1)).toMatchObject({ externalEventId: "order-paid", conversationId: "c-1", externalEventPayload: payload });
  });

  it("fires by external conversation identifier with no variables", async () => {
    const run = await runCli(
      [
        "fire",
        "--agent-stage-id",
        "bot-1",
        "--external-event-id",
        "callback-requested",
        "--external-conversation-id",
        "s-3|livechat",
        "--yes",
        "--output",
        "table",
      ],
      envOf(sandbox()),
    );
    expect(run).toMatchObject({ code: 0, stdout: "Fired callback-requested into s-3|livechat.\n", stderr: "" });
    expect((await firedEvents(sandbox())).at(-1)).toMatchObject({ externalEventId: "callback-requested", conversationId: "c-3" });
  });

  const refusals: [string, string[], RegExp][] = [
    [
      "a wrong-typed value",
      ["--var", "amount=lots"],
      /^error: --var amount: expected Number; got "lots" \(the trigger's variables: amount \(Number\), confirmed \(Boolean\)/,
    ],
    ["a wrong-typed boolean", ["--var", "confirmed=yes"], /^error: --var confirmed: expected Boolean; got "yes"/],
    ["a wrong-typed object", ["--var", "order=[1]"], /^error: --var order: expected ComplexObject; got \[1\]/],
    ["a bad date-time", ["--var", "paidAt=tomorrow"], /^error: --var paidAt: expected DateTime; got "tomorrow"/],
    [
      "an unknown variable",
      ["--var", "colour=red"],
      /^error: --var colour: not a variable of trigger order-paid; got "colour"|^error: --var colour: not a variable of trigger order-paid/,
    ],
    ["a --var without =", ["--var", "amount"], /^error: --var: expected name=value; got "amount"\n$/],
    ["an unknown flag", ["--vars", "amount=1"], /^error: unknown option '--vars' \(Did you mean --var\?\)\n$/],
    ["a variable given twice", ["--var", "amount=1", "--var", "amount=2"], /^error: --var amount: given twice; expected each variable once\n$/],
  ];
  it.each(refusals)("%s is refused in one line, exit 2, nothing fired", async (_name, args, message) => {
    const before = await firedEvents(sandbox());
    const run = await runCli([...fire, ...args, "--yes"], envOf(sandbox()));
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(message);
    expect(await firedEvents(sandbox())).toEqual(before);
  });

  it("an unknown trigger names the bot's triggers; nothing fired", async () => {
    const before = await firedEvents(sandbox());
    const run = await runCli(
      ["fire", "--agent-stage-id", "bot-1", "--external-event-id", "order-shipped", "--conversation-id", "c-1", "--yes"],
      envOf(sandbox()),
    );
    expect(run).toMatchObject({
      code: 2,
      stderr: 'error: --external-event-id: bot bot-1 has no trigger "order-shipped"; expected one of: order-paid, callback-requested\n',
    });
    expect(await firedEvents(sandbox())).toEqual(before);
  });

  it("off a terminal without --yes, or without a conversation, or with both identifiers: refused before any request", async () => {
    const before = await firedEvents(sandbox());
    expect(await runCli([...fire, "--var", "amount=1"], envOf(sandbox()))).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: fire: expected --yes off a terminal/),
    });
    expect(await runCli(["fire", "--agent-stage-id", "bot-1", "--external-event-id", "order-paid", "--yes"], envOf(sandbox()))).toMatchObject({
      code: 2,
      stderr: "error: fire: expected --conversation-id <id> or --external-conversation-id <id>\n",
    });
    const both = await runCli([...fire, "--external-conversation-id", "x|livechat", "--yes"], envOf(sandbox()));
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^error: option '--conversation-id <id>' cannot be used with option '--external-conversation-id <id>'\n$/);
    expect(await firedEvents(sandbox())).toEqual(before);
  });

  it("the service's refusal (an unknown conversation) is one line with its detail, exit 1, never retried", async () => {
    const before = await firedEvents(sandbox());
    const run = await runCli(
      ["fire", "--agent-stage-id", "bot-1", "--external-event-id", "callback-requested", "--conversation-id", "c-404", "--yes", "--verbose"],
      envOf(sandbox()),
    );
    expect(run.code).toBe(1);
    const errors = run.stderr.split("\n").filter((line) => line.startsWith("error:"));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/POST \/api\/v1\/runtime\/simple\/external\/events answered 404: .*c-404/);
    // --verbose: one line per attempt; a fire has exactly one.
    expect(run.stderr.split("\n").filter((line) => line.includes("POST"))).toHaveLength(2);
    expect(await firedEvents(sandbox())).toEqual(before);
  });
});
