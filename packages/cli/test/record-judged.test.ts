import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useMock } from "@bot-conversation/mock/testing";
import { describe, expect, it } from "vitest";
import { startRecorder } from "../src/record/recorder.ts";
import type { RecordReport } from "../src/record/report.ts";
import { runCli } from "./support/cli.ts";

/** The bot and the conversation of the description's examples, which Prism serves. */
const exampleBot = "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c";
const exampleConversation = "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c";

const prism = useMock();

const fire = (base: string, body: unknown) =>
  fetch(`${base}/api/v1/runtime/simple/external/events`, {
    method: "POST",
    headers: { "X-Token": "prism-token", "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

describe("record: every exchange judged by the rules, through the kit's checks and the client's payload rule", () => {
  it("Prism recorded: a 2xx to a bad fire or an unknown trigger is a problem, its documented 500 is valid, no bot is invented", async () => {
    const out = await mkdtemp(join(tmpdir(), "record-judged-"));
    const lines: string[] = [];
    const recorder = await startRecorder({ upstream: prism().url, out, salt: "s", log: (line) => lines.push(line), logExchanges: true });
    const get = (path: string, headers: Record<string, string> = {}) => fetch(`${recorder.url}${path}`, { headers: { "X-Token": "prism-token", ...headers } });
    const statuses = [
      (await get(`/api/v2/channels/conversations?agentStageId=${exampleBot}`)).status,
      (await get(`/api/v1/runtime/simple/external/events/${exampleBot}`)).status,
      // Prism answers any bot with its example list: nothing in one exchange tells it from a real bot.
      (await get("/api/v1/runtime/simple/external/events/no-such-bot")).status,
      // The trigger list's 500 is documented (seed, Errors): the service's answer, not an invalid exchange.
      (await get(`/api/v1/runtime/simple/external/events/${exampleBot}`, { Prefer: "code=500" })).status,
      (await fire(recorder.url, { conversationId: exampleConversation, externalEventId: "order-status-changed", externalEventPayload: { orderTotal: 149.9 } }))
        .status,
      (
        await fire(recorder.url, {
          conversationId: exampleConversation,
          externalEventId: "order-status-changed",
          externalEventPayload: { orderTotal: "one hundred" },
        })
      ).status,
      (await fire(recorder.url, { conversationId: exampleConversation, externalEventId: "no-such-trigger" })).status,
    ];
    await recorder.stop();
    // Prism answers every one of them with a 2xx but the asked-for 500.
    expect(statuses).toEqual([200, 200, 200, 500, 200, 200, 200]);
    const report = JSON.parse(await readFile(join(out, "report.json"), "utf8")) as RecordReport;
    expect(report.operations["fireExternalEvent"]).toEqual({ "200": { exchanges: 3, invalid: 2 } });
    expect(report.operations["listExternalEventTriggers"]?.["500"]).toEqual({ exchanges: 1, invalid: 0 });
    const fires = report.problems.filter((problem) => problem.operationId === "fireExternalEvent");
    expect(fires).toEqual([
      {
        operationId: "fireExternalEvent",
        status: 200,
        pointer: "/body/externalEventId",
        message: `unknown_trigger_not_found: expected 404 for a trigger the recorded trigger list of bot ${exampleBot} does not have; got 200`,
        count: 1,
      },
      {
        operationId: "fireExternalEvent",
        status: 200,
        pointer: "/body/externalEventPayload/orderTotal",
        message: "payload_validation_rejection: expected 500 for a value its type Number refuses; got 200",
        count: 1,
      },
    ]);
    expect(report.problems.filter((problem) => problem.operationId === "listExternalEventTriggers")).toEqual([]);
    // The trigger list's 500 is one the seed documents, with its details in the body: the kit's
    // not_a_server_error holds it (no finding either).
    expect(report.findings.filter((finding) => finding.operationId === "listExternalEventTriggers")).toEqual([]);
    expect(report.notRecorded).toEqual({ triggerLists: [] });
    const fixture = JSON.parse(await readFile(join(out, "fixture.json"), "utf8")) as { bots: { agentStageId: string }[] };
    expect(fixture.bots.map((bot) => bot.agentStageId)).toEqual([exampleBot]);
    expect(await readFile(join(out, "report.md"), "utf8")).toContain("bot no-such-bot: its trigger list was recorded, but no conversation of it");
    // A line per exchange: operation, status, verdict.
    expect(lines).toEqual([
      "searchConversations 200 valid",
      "listExternalEventTriggers 200 valid",
      "listExternalEventTriggers 200 valid",
      "listExternalEventTriggers 500 valid",
      "fireExternalEvent 200 valid",
      expect.stringMatching(/^fireExternalEvent 200 invalid \(1 problem; first \/body\/externalEventPayload\/orderTotal: payload_validation_rejection/),
      expect.stringMatching(/^fireExternalEvent 200 invalid \(1 problem; first \/body\/externalEventId: unknown_trigger_not_found/),
    ]);
  });

  it("names a bot whose trigger list was never recorded in notRecorded.triggerLists; --operation records only those operations", async () => {
    const out = await mkdtemp(join(tmpdir(), "record-judged-"));
    const recorder = await startRecorder({ upstream: prism().url, out, salt: "s" });
    await (await fetch(`${recorder.url}/api/v2/channels/conversations?agentStageId=${exampleBot}`, { headers: { "X-Token": "t" } })).arrayBuffer();
    await recorder.stop();
    const report = JSON.parse(await readFile(join(out, "report.json"), "utf8")) as RecordReport;
    expect(report.notRecorded).toEqual({ triggerLists: [exampleBot] });
    expect(await readFile(join(out, "report.md"), "utf8")).toContain(`not recorded: the trigger list of bot ${exampleBot}`);

    const only = await mkdtemp(join(tmpdir(), "record-judged-"));
    const filtered = await startRecorder({ upstream: prism().url, out: only, salt: "s", operations: ["fireExternalEvent"] });
    expect((await fetch(`${filtered.url}/api/v1/runtime/simple/external/events/${exampleBot}`, { headers: { "X-Token": "t" } })).status).toBe(200);
    expect((await fire(filtered.url, { conversationId: exampleConversation, externalEventId: "callback-requested" })).status).toBe(200);
    expect((await filtered.stop()).exchanges).toBe(1);
    const onlyReport = JSON.parse(await readFile(join(only, "report.json"), "utf8")) as RecordReport;
    expect(Object.keys(onlyReport.operations)).toEqual(["fireExternalEvent"]);
    expect(await runCli(["record", "--upstream", prism().url, "--out", only, "--operation", "fire", "--salt", "s"])).toMatchObject({
      code: 2,
      stderr:
        'error: --operation: expected an operationId of the description (searchConversations, listExternalEventTriggers, fireExternalEvent); got "fire"\n',
    });
  });
});
