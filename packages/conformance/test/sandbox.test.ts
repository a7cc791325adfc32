import { createSandbox } from "@bot-conversation/sandbox";
import { describe, expect, it } from "vitest";
import { pageChecks, responseChecks } from "../src/checks/index.ts";
import { type ConformanceOptions, type ConformanceReport, checkNames, runConformance } from "../src/index.ts";
import { phases } from "../src/phases/index.ts";
import { searchStatusesNotShown } from "../src/phases/search.ts";
import { exampleFixture, fixtureBot, fixtureConversation, sandboxExportPath, useSandbox } from "./support/sandbox.ts";

const sandbox = useSandbox();

/** A full run with firing allowed, against a sandbox reached through its in-process fetch. */
const fullRun = (fetch: typeof globalThis.fetch, more: Partial<ConformanceOptions> = {}): Promise<ConformanceReport> =>
  runConformance({
    baseUrl: "http://sandbox.test",
    fetch,
    token: "sandbox-token",
    seed: 5,
    examples: 30,
    rate: 0,
    agentStageId: fixtureBot,
    allowFire: true,
    ...fixtureConversation,
    exportPath: sandboxExportPath,
    ...more,
  });
const failing = (report: ConformanceReport): string[] => report.checks.filter((check) => check.failed > 0).map((check) => check.name);
const finding = (report: ConformanceReport, name: string): unknown => report.findings.find((entry) => entry.name === name)?.value;

describe("against the sandbox", () => {
  it("every check runs and holds", async () => {
    // max_response_time is opt-in: a bound no loopback answer comes near, so the check runs.
    const report = await fullRun(sandbox().fetch, { maxResponseTimeMs: 60_000 });
    expect(failing(report)).toEqual([]);
    // The description documents no response header, so that check has nothing to hold a server to, and says so.
    const headers = report.checks.find((check) => check.name === "response_headers_conformance")!;
    expect(headers).toMatchObject({ status: "not run", skipped: "the description documents no response header" });
    for (const name of checkNames.filter((name) => name !== headers.name))
      expect(report.checks.find((check) => check.name === name)!.passed, name).toBeGreaterThan(0);
    expect(report.counts).toEqual({ passed: checkNames.length - 1, failed: 0, notJudged: 0, notRun: 1 });
    expect(report.warnings).toEqual([]);
    expect(report.passed).toBe(true);
    // The table of phases drove the run: every phase, in its order, feeding the checks it names; and every check is fed by one.
    expect(report.phases.map(({ phase, checks }) => ({ phase, checks }))).toEqual(phases.map(({ name, checks }) => ({ phase: name, checks })));
    const fed = new Set([...responseChecks, ...pageChecks].map(([name]) => name).concat(phases.flatMap((phase) => phase.checks)));
    expect(checkNames.filter((name) => !fed.has(name))).toEqual([]);
    // The defaults of the sandbox's switches, each read back by discovery.
    expect(finding(report, "default_page_size")).toBe(20);
    expect(finding(report, "page_index_base")).toBe(0);
    expect(finding(report, "status_letter_case")).toBe("significant");
    expect(finding(report, "trigger_list_shape")).toBe("array");
    expect(finding(report, "identifier_precedence")).toBe("conversationId");
    expect(finding(report, "inbound_direction_spelling")).toEqual(["Inbound"]);
    expect(finding(report, "item_order")).toContain("startedOn descending");
    expect(finding(report, "max_page_size")).toEqual({ answer: "accepted", pageSize: 1000 });
    expect(finding(report, "date_range_end")).toBe("inclusive");
    expect(finding(report, "unlisted_query_parameters")).toBe("rejected");
    expect(finding(report, "error_body_layout")).toMatchObject({ 401: expect.stringContaining("(application/json)") });
    // The open points the kit now asks about, as the sandbox answers them.
    expect(finding(report, "unlisted_variable")).toBe("rejected");
    expect(finding(report, "identifier_letter_case")).toEqual({ triggerList: 404, search: "0 conversations" });
    // Every rule of the catalog was reached by a family that held (the sandbox runs the service's rules).
    expect(report.rules.filter((rule) => rule.verdict !== "passed").map((rule) => [rule.id, rule.verdict])).toEqual([]);
    expect(finding(report, "unknown_bot_search")).toBe("empty page");
    expect(finding(report, "date_filter_forms")).toEqual({ dateOnly: "refused (400)", offsetLess: "refused (400)" });
    expect(finding(report, "head_and_options")).toEqual({ HEAD: 200, OPTIONS: 405 });
    expect(finding(report, "date_time_offsets")).toEqual({ latestMessageOn: expect.objectContaining({ withoutOffset: 0 }) });
    expect(finding(report, "rate_limit")).toBeUndefined();
  });

  it("with a second bot's conversations in the data, a run for one bot still holds: the other bot's conversations are not looked for under it", async () => {
    const fixture = exampleFixture();
    const other = "another-bot";
    const twoBots = await createSandbox({
      fixture: {
        bots: [...fixture.bots, { agentStageId: other, triggers: [] }],
        conversations: [
          // Ten conversations for the bot checked, and a newer, larger set for the other: the first unfiltered page holds only the other's.
          ...fixture.conversations.slice(0, 10),
          ...fixture.conversations.map((entry) => ({
            ...entry,
            agentStageId: other,
            startedOn: new Date(Date.parse(entry.startedOn) + 2 * 86_400_000).toISOString(),
            conversation: { ...entry.conversation, id: `other-${entry.conversation.id}`, channelData: null },
          })),
        ],
      },
    });
    try {
      const report = await fullRun(twoBots.fetch);
      expect(failing(report)).toEqual([]);
      expect(report.checks.find((check) => check.name === "bot_filter_match")!.passed).toBeGreaterThan(0);
    } finally {
      await twoBots.close();
    }
  });

  it("the same seed sends the same requests; another seed, others", async () => {
    const counts = (report: ConformanceReport) => report.checks.map((check) => [check.name, check.passed, check.failed]);
    const first = await fullRun(sandbox().fetch, { allowFire: false });
    const again = await fullRun(sandbox().fetch, { allowFire: false });
    const other = await fullRun(sandbox().fetch, { allowFire: false, seed: 6 });
    expect(counts(again)).toEqual(counts(first));
    expect(again.requests).toBe(first.requests);
    expect(first.seed).toBe(5);
    expect(other.seed).toBe(6);
    // Read-only: the table's fire phases do not run; the checks only they feed are not run, saying why, and
    // negative_data_rejection, which no search feeds (the seed shows no search status but success), says so.
    expect(first.phases.map((timing) => timing.phase).filter((phase) => phase.startsWith("fireExternalEvent"))).toEqual([]);
    const firingOff = "firing is off: pass --allow-fire with --conversation-id";
    expect(first.checks.filter((check) => check.skipped === firingOff).map((check) => [check.name, check.status])).toEqual(
      [
        "unknown_trigger_not_found",
        "unknown_conversation_not_found",
        "payload_validation_rejection",
        "payload_acceptance",
        "payload_optional",
        "payload_shape_rejection",
      ].map((name) => [name, "not run"]),
    );
    const negative = first.checks.find((check) => check.name === "negative_data_rejection")!;
    expect([negative.status, negative.skipped]).toEqual(["not run", searchStatusesNotShown]);
    expect(finding(first, "invalid_search_values")).toEqual({ refused: expect.arrayContaining(["pageSize"]), ignored: [] });
  });

  it("firing allowed but no bot given: the phases that need the bot's triggers do not run, and their checks say so", async () => {
    const report = await runConformance({
      baseUrl: "http://sandbox.test",
      fetch: sandbox().fetch,
      token: "sandbox-token",
      seed: 5,
      examples: 5,
      rate: 0,
      allowFire: true,
      ...fixtureConversation,
    });
    const needsBot = "needs --agent-stage-id: the variables come from the bot's triggers";
    expect(report.checks.filter((check) => check.skipped === needsBot).map((check) => check.name)).toEqual([
      "payload_validation_rejection",
      "payload_acceptance",
      "payload_optional",
      "payload_shape_rejection",
    ]);
    expect(report.phases.map((timing) => timing.phase)).toContain("fireExternalEvent: unknown trigger and conversation");
  });

  it("the fired events are the ones the run reports, into the given conversation only", async () => {
    const own = await createSandbox({ fixture: exampleFixture() });
    try {
      const report = await fullRun(own.fetch);
      const fired = (await (await own.fetch(`http://sandbox.test/_sandbox/fired-events`, { headers: { "x-token": "sandbox-token" } })).json()) as {
        conversationId: string;
      }[];
      const accepted = report.checks.find((check) => check.name === "payload_acceptance")!.passed;
      expect(fired.length).toBeGreaterThanOrEqual(accepted);
      expect(new Set(fired.map((event) => event.conversationId))).toEqual(new Set([fixtureConversation.conversationId]));
    } finally {
      await own.close();
    }
  });

  const switches: ReadonlyArray<{ options: Parameters<typeof createSandbox>[0]; name: string; value: unknown; failing?: string[] }> = [
    { options: { pageBase: 1 }, name: "page_index_base", value: 1 },
    { options: { defaultPageSize: 7 }, name: "default_page_size", value: 7 },
    { options: { statusCase: "insensitive" }, name: "status_letter_case", value: "ignored" },
    { options: { identifierWins: "externalConversationId" }, name: "identifier_precedence", value: "externalConversationId" },
    { options: { inboundDirection: "In" }, name: "inbound_direction_spelling", value: ["In"] },
    // The description declares an array, but the shape is an open point: a single descriptor is a finding, not a failure.
    { options: { triggerList: "single" }, name: "trigger_list_shape", value: "single" },
    { options: { dateTo: "exclusive" }, name: "date_range_end", value: "exclusive" },
    { options: { unknownParameters: "ignore" }, name: "unlisted_query_parameters", value: "ignored" },
    // The description sets no maximum, but the maximum is an open point: a page size above the default refused is a finding, not a failure.
    { options: { maxPageSize: 50 }, name: "max_page_size", value: { answer: "refused", status: 400 } },
  ];

  it.each(switches)("discovery reads the switch $options back as $name", async ({ options, name, value, failing: expected = [] }) => {
    const switched = await createSandbox({ fixture: exampleFixture(), ...options });
    try {
      const report = await fullRun(switched.fetch);
      expect(finding(report, name)).toEqual(value);
      expect(failing(report)).toEqual(expected);
    } finally {
      await switched.close();
    }
  });

  it("discovery reads the error media type switch back; problem+json errors pass though the description documents application/json only", async () => {
    const switched = await createSandbox({ fixture: exampleFixture(), errorMediaType: "application/problem+json" });
    try {
      const report = await fullRun(switched.fetch);
      expect(finding(report, "error_body_layout")).toMatchObject({ 401: expect.stringContaining("(application/problem+json)") });
      expect(failing(report)).toEqual([]);
    } finally {
      await switched.close();
    }
  });

  it("discovery reads the order switch back", async () => {
    const switched = await createSandbox({ fixture: exampleFixture(), order: "startedOn-asc" });
    try {
      expect(finding(await fullRun(switched.fetch), "item_order")).toContain("startedOn ascending");
    } finally {
      await switched.close();
    }
  });
});
