import { searchFilters } from "@bot-conversation/openapi";
import { createSandbox } from "@bot-conversation/sandbox";
import { describe, expect, it } from "vitest";
import { loadDescription } from "../src/description.ts";
import { runConformance } from "../src/index.ts";
import { startFaultyProxy } from "./support/faulty-proxy.ts";
import { exampleFixture, fixtureBot, fixtureConversation, useSandbox } from "./support/sandbox.ts";

const sandbox = useSandbox();
const firePath = loadDescription().operations.get("fireExternalEvent")!.path;
/** The search's parameters, from the description: a parameter added there is expected here with no edit. */
const searchParameterNames = loadDescription()
  .operations.get("searchConversations")!
  .parameters.map((parameter) => parameter.name);
const base = { token: "sandbox-token", seed: 4, examples: 10, rate: 0, agentStageId: fixtureBot } as const;

describe("safe against a real service", () => {
  it("a read-only run sends no POST and reports no side effect", async () => {
    const methods = new Set<string>();
    const own = await createSandbox({ fixture: exampleFixture() });
    try {
      const report = await runConformance({
        ...base,
        baseUrl: "http://sandbox.test",
        fetch: (input, init) => (methods.add(init?.method ?? "GET"), own.fetch(input as Request, init)),
      });
      // HEAD and OPTIONS are safe by HTTP's own rules: discovery asks what the server answers to them.
      expect([...methods].sort()).toEqual(["DELETE", "GET", "HEAD", "OPTIONS"]);
      expect(report.sideEffects).toEqual([]);
      const fired = (await (await own.fetch("http://sandbox.test/_sandbox/fired-events", { headers: { "x-token": "sandbox-token" } })).json()) as unknown[];
      expect(fired).toEqual([]);
    } finally {
      await own.close();
    }
  });

  it("against a server that accepts wrong payloads: one wrong value per variable type, and every accepted event listed as a side effect", async () => {
    // The 500 for a wrong value becomes a 200: the server fired it.
    const accepting = await startFaultyProxy(
      { baseUrl: "http://sandbox.test", fetch: sandbox().fetch },
      {
        response: (url, response) =>
          void (url.pathname === firePath && response.status === 500 && Object.assign(response, { status: 200, body: "", headers: {} })),
      },
    );
    try {
      // The relations' own fires (a listed trigger with every variable, a fire sent again chunked or respelled) left out: each fire here has one source.
      const report = await runConformance({
        ...base,
        baseUrl: accepting.url,
        allowFire: true,
        ...fixtureConversation,
        excludeChecks: ["metamorphic_relations", "operation_consistency"],
      });
      const rejection = report.checks.find((check) => check.name === "payload_validation_rejection")!;
      const types = new Set(rejection.failures.map((failure) => /\((\w+)\) =/.exec(failure.message)?.[1]));
      // One accepted wrong value per type, never shrunk into more fires.
      expect(rejection.failed).toBe(types.size);
      expect(types.size).toBeGreaterThan(3);
      const accepted = report.sideEffects.map((effect) => effect.request);
      const passed = (name: string): number => report.checks.find((check) => check.name === name)!.passed;
      const found = (name: string): unknown => report.findings.find((finding) => finding.name === name)?.value;
      // The identifier-encodings probe: the conversation's id plainly, then with a JSON escape (one request each).
      const escaped = accepted.filter((request) => request.includes('"conversationId":"\\u00')).length;
      expect(escaped).toBe(1);
      // Every fire the server accepted: wrong values, right values, fires without a payload, the escape probe and its plain twin, the precedence probe, the unlisted variable and the open forms.
      expect(report.sideEffects.length).toBe(
        rejection.failed +
          2 * escaped +
          passed("payload_acceptance") +
          passed("payload_optional") +
          (found("identifier_precedence") ? 1 : 0) +
          (found("unlisted_variable") === "ignored" ? 1 : 0) +
          // The open forms of a DateTime the server took (each fired once).
          Object.values((found("date_time_variable_forms") as Record<string, number> | undefined) ?? {}).filter((status) => status < 300).length,
      );
      for (const failure of rejection.failures) expect(accepted).toContain(failure.sent);
      expect(accepted.every((request) => request.startsWith(`POST ${accepting.url}${firePath} {`))).toBe(true);
    } finally {
      await accepting.close();
    }
  });

  it("weak data: a bot with no conversation gets a warning naming every filter never exercised with results", async () => {
    const empty = await createSandbox({ fixture: { ...exampleFixture(), conversations: [] } });
    try {
      const report = await runConformance({ ...base, baseUrl: "http://sandbox.test", fetch: empty.fetch });
      const named = report.warnings.map((warning) => warning.split(" ")[0]);
      // Every filter of the search filters' one table.
      expect(named.sort()).toEqual(searchFilters.map((filter) => filter.name).sort());
      expect(report.checks.find((check) => check.name === "filter_inclusion")).toMatchObject({
        status: "not run",
        skipped: "no search returned a conversation to look for by its dates",
      });
    } finally {
      await empty.close();
    }
  });

  it("coverage: every operation, its documented statuses and its parameters, with what returned data", async () => {
    const report = await runConformance({ ...base, baseUrl: "http://sandbox.test", fetch: sandbox().fetch, allowFire: true, ...fixtureConversation });
    const search = report.coverage.find((operation) => operation.operationId === "searchConversations")!;
    expect(search.parameters.map((parameter) => parameter.name).sort()).toEqual([...searchParameterNames].sort());
    for (const parameter of search.parameters) expect(parameter.withData, parameter.name).toBeGreaterThan(0);
    // Searches are built to return data: most of the pages served hold conversations.
    const served = search.statuses.find((status) => status.status === "200")!.responses;
    expect(search.withData / served).toBeGreaterThan(0.6);
    expect(search.statuses.filter((status) => status.responses > 0).map((status) => status.status)).toEqual(["200", "401", "4XX"]);
    const fire = report.coverage.find((operation) => operation.operationId === "fireExternalEvent")!;
    expect(fire.statuses.map((status) => [status.status, status.responses > 0])).toEqual(
      expect.arrayContaining([
        ["200", true],
        ["401", true],
        ["404", true],
        ["500", true],
      ]),
    );
    expect(report.warnings).toEqual([]);
  });
});

describe("variants of the token", () => {
  it.each(["12345678", "t"])("a token %s whose re-cased or spaced variant HTTP reads as the token itself is never sent as a wrong one", async (token) => {
    // A server whose token is this one: the proxy lets it (and only it) in as the sandbox's.
    const proxy = await startFaultyProxy(
      { baseUrl: "http://sandbox.test", fetch: sandbox().fetch },
      { request: (_url, headers) => void (headers.get("x-token") === token && headers.set("x-token", "sandbox-token")) },
    );
    try {
      const report = await runConformance({ ...base, token, baseUrl: proxy.url });
      expect(report.checks.filter((check) => check.failed > 0).map((check) => check.name)).toEqual([]);
      expect(report.checks.find((check) => check.name === "ignored_auth")!.passed).toBeGreaterThan(0);
    } finally {
      await proxy.close();
    }
  });
});
