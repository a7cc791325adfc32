import { describe, expect, it } from "vitest";
import { type ConformanceReport, humanReport, jsonReport, junitReport, runConformance } from "../src/index.ts";
import { editJson, startFaultyProxy } from "./support/faulty-proxy.ts";
import { exampleBot, exampleConversation, usePrism } from "./support/prism.ts";

const prism = usePrism();
const token = "prism-secret-4417";

const failing = (report: ConformanceReport): string[] => report.checks.filter((check) => check.failed > 0).map((check) => check.name);
const finding = (report: ConformanceReport, name: string): unknown => report.findings.find((entry) => entry.name === name)?.value;

/**
 * The checks Prism fails read-only, its stateless gaps: it serves the same example page whatever the filters (the
 * bot's too) and pageIndex (a complete one, so a paging walk ends), accepts any token value, lists triggers for any
 * bot, and answers an undocumented method with a 405 that lacks Allow.
 */
const readOnlyGaps = ["ignored_auth", "unsupported_method", "envelope_math", "filter_match", "search_model", "bot_filter_match", "unknown_bot_not_found"];

describe("against the real Prism mock", () => {
  it("reports exactly the stateless gaps of the mock, read-only", async () => {
    const report = await runConformance({ baseUrl: prism().url, token, seed: 7, examples: 25, agentStageId: exampleBot, rate: 0 });
    // Prism serves the same example page whatever the filters (the bot's too) and pageIndex (a complete one, so a
    // paging walk ends), accepts any token value, lists triggers for any bot, and answers an
    // undocumented method with a 405 that lacks Allow: those are its gaps, and nothing else fails.
    expect(failing(report)).toEqual(readOnlyGaps);
    const authFailures = report.checks.find((check) => check.name === "ignored_auth")!.failures;
    expect(authFailures.map((failure) => failure.message)).toEqual(expect.arrayContaining([expect.stringContaining("with a wrong X-Token; got 200")]));
    expect(authFailures.some((failure) => failure.message.includes("without X-Token"))).toBe(false);
    const envelope = report.checks.find((check) => check.name === "envelope_math")!.failures;
    expect(envelope.map((failure) => failure.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/pageIndex \(as requested\): expected \d+, got 0/)]),
    );
    expect(
      report.checks
        .filter((check) => check.name.startsWith("unknown_t") || check.name.startsWith("payload"))
        .every((check) => check.skipped?.includes("--allow-fire")),
    ).toBe(true);
    expect(report.passed).toBe(false);
    expect(finding(report, "page_index_base")).toBe(0);
    expect(finding(report, "status_letter_case")).toBe("significant");
    expect(finding(report, "trigger_list_shape")).toBe("array");
  });

  it("with --allow-fire, also reports that the mock fires into any conversation and accepts any value", async () => {
    const report = await runConformance({
      baseUrl: prism().url,
      token,
      seed: 7,
      examples: 10,
      agentStageId: exampleBot,
      allowFire: true,
      conversationId: exampleConversation,
      rate: 0,
    });
    expect(failing(report)).toEqual([...readOnlyGaps, "unknown_trigger_not_found", "unknown_conversation_not_found", "payload_validation_rejection"]);
    const payload = report.checks.find((check) => check.name === "payload_acceptance")!;
    expect(payload.passed).toBeGreaterThanOrEqual(7);
    expect(finding(report, "identifier_precedence")).toBe("conversationId");
  });

  it("never writes the token in any report, and reproduces failures with $BOT_CONVERSATION_TOKEN", async () => {
    const report = await runConformance({ baseUrl: prism().url, token, seed: 3, examples: 5, rate: 0 });
    const reports = [humanReport(report), jsonReport(report), junitReport(report)];
    for (const text of reports) expect(text).not.toContain(token);
    const curls = report.checks.flatMap((check) => check.failures.map((failure) => failure.curl)).filter((curl) => curl.includes("X-Token: $"));
    expect(curls.length).toBeGreaterThan(0);
    expect(curls.some((curl) => curl.includes('-H "X-Token: $BOT_CONVERSATION_TOKEN"'))).toBe(true);
    // The token's variants (another letter case) are made by the shell from the variable too.
    expect(curls.find((curl) => curl.includes("tr 'a-zA-Z' 'A-Za-z'"))).toContain('"X-Token: $(printf %s "$BOT_CONVERSATION_TOKEN" | tr');
  });

  it("with a one-letter token, hides it only where it stands alone: the bodies are not mangled, and an echoed token is still hidden", async () => {
    // In front of Prism, a server that echoes the token as a trigger's display name.
    const echoing = await startFaultyProxy(
      { baseUrl: prism().url },
      {
        response: (url, response) =>
          url.pathname.includes("/events/") &&
          response.status === 200 &&
          editJson(response, (body) => (body as object[]).map((trigger) => ({ ...trigger, externalEventName: "t" }))),
      },
    );
    try {
      const report = await runConformance({ baseUrl: echoing.url, token: "t", seed: 7, examples: 10, agentStageId: exampleBot, rate: 0 });
      // The same gaps as with a long token: no body was mangled into a schema failure ("items" stays "items").
      expect(failing(report)).toEqual([
        "ignored_auth",
        "unsupported_method",
        "envelope_math",
        "filter_match",
        "search_model",
        "bot_filter_match",
        "unknown_bot_not_found",
      ]);
      const excerpts = report.checks.flatMap((check) => check.failures.map((failure) => failure.responseExcerpt));
      expect(excerpts.find((excerpt) => excerpt.includes('"items":'))).toBeDefined();
      expect(excerpts.find((excerpt) => excerpt.includes('"externalEventName":"$BOT_CONVERSATION_TOKEN"'))).toBeDefined();
      for (const text of [humanReport(report), jsonReport(report), junitReport(report)]) {
        expect(text).toContain("$BOT_CONVERSATION_TOKEN");
        expect(text).not.toMatch(/externalEventName(\\?"|&quot;):(\\?"|&quot;)t(\\?"|&quot;)/);
        expect(text).not.toContain("$BOT_CONVERSATION_TOKENems");
      }
    } finally {
      await echoing.close();
    }
  });
});
