import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSandbox } from "@bot-conversation/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { check } from "./support/command.ts";
import { type FaultyProxy, startFaultyProxy } from "./support/faulty-proxy.ts";
import { exampleFixture, fixtureBot, useSandbox } from "./support/sandbox.ts";

const sandbox = useSandbox();
const token = "sandbox-token";
const fast = ["--rate", "0", "--examples", "5", "--seed", "3"];

describe("bot-conversation check: usage", () => {
  let http: FaultyProxy;
  let seen: Headers[];
  let directory: string;
  beforeAll(async () => {
    seen = [];
    http = await startFaultyProxy(
      { baseUrl: "http://sandbox.test", fetch: sandbox().fetch },
      { request: (_, headers) => void seen.push(new Headers(headers)) },
    );
    directory = await mkdtemp(join(tmpdir(), "conformance-command-"));
  });
  afterAll(async () => {
    await http.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("--help shows an example", async () => {
    const run = await check(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\nExamples?:\n {2}bot-conversation check /);
    for (const flag of [
      "--max-response-time",
      "--max-time",
      "--max-failures",
      "--checks",
      "--exclude-checks",
      "--config",
      "--baseline",
      "--update-baseline",
      "--html",
      "--header",
      "--proxy",
      "--ca-cert",
      "--insecure",
      "--token-file",
      "--dry-run",
    ]) {
      expect(run.stdout).toContain(flag);
    }
  });

  const usage: ReadonlyArray<[string, () => string[], string]> = [
    [
      "an unknown --agent-stage-id",
      () => ["--base-url", http.url, "--token", token, "--agent-stage-id", "no-such-bot"],
      '--agent-stage-id "no-such-bot": the server knows no such bot',
    ],
    [
      "an unknown --conversation-id",
      () => ["--base-url", http.url, "--token", token, "--agent-stage-id", fixtureBot, "--allow-fire", "--conversation-id", "no-such-conversation"],
      '--conversation-id "no-such-conversation": no such conversation',
    ],
    ["an unknown check", () => ["--base-url", http.url, "--token", token, "--checks", "ignored_auth,no_such_check"], 'checks: unknown check "no_such_check"'],
    ["a malformed header", () => ["--base-url", http.url, "--token", token, "--header", "no colon"], "--header \"no colon\": expected 'Name: value'"],
    ["the token as a header", () => ["--base-url", http.url, "--token", token, "--header", "X-Token: other"], "headers: X-Token is set by the kit itself"],
    ["--update-baseline alone", () => ["--base-url", http.url, "--token", token, "--update-baseline"], "--update-baseline needs --baseline FILE"],
    ["a missing token file", () => ["--base-url", http.url, "--token-file", join(directory, "absent")], "--token-file"],
    ["a missing config", () => ["--token", token, "--config", join(directory, "absent.yaml")], "cannot read it (ENOENT)"],
    ["a bad proxy URL", () => ["--base-url", http.url, "--token", token, "--proxy", "not a url"], "--proxy: expected a URL"],
    ["an unreachable server", () => ["--base-url", "http://127.0.0.1:9", "--token", token], "is unreachable"],
  ];
  it.each(usage)("%s exits 2 with one line naming it, and runs no check", async (_, args, reason) => {
    const run = await check([...args(), ...fast]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(reason);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stdout).toBe("");
  });

  it.each([
    ["an unknown key", "baseUrl: http://x\nmaxTimes: 3\n", 'unknown key "maxTimes"'],
    ["a wrong type", "maxTime: soon\n", "maxTime: expected a number"],
    ["a bad decision", '{"decisions": {"dateRangeBounds": "sometimes"}}', 'decisions.dateRangeBounds: expected "inclusive" or "exclusive"'],
    ["a token in it", "token: abc\n", "a token is never read from a config"],
    ["text that is no YAML", "a: [1\n", "not valid JSON or YAML"],
  ])("a config with %s exits 2 naming the key", async (_, text, reason) => {
    const file = join(directory, "bad.yaml");
    await writeFile(file, text);
    const run = await check(["--base-url", http.url, "--token", token, "--config", file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(reason);
  });

  it("--dry-run prints the plan and sends nothing", async () => {
    const before = seen.length;
    const run = await check(["--base-url", http.url, "--token", token, "--agent-stage-id", fixtureBot, "--dry-run"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("dry run: nothing is sent");
    expect(run.stdout).toContain("firing: off");
    // The plan lists the phases of the table the run follows, with the checks each feeds; none that fires.
    expect(run.stdout).toContain("\n       searchConversations: walk every page, and again at another page size (paging_walk, metamorphic_relations)\n");
    expect(run.stdout).toContain("\n       listExternalEventTriggers: unknown bot (unknown_bot_not_found)\n");
    expect(run.stdout).not.toContain("fireExternalEvent:");
    expect(seen.length).toBe(before);
  });

  it("--token-file and --header: the token is read from the file, the header sent on every request", async () => {
    const file = join(directory, "token.txt");
    await writeFile(file, `${token}\n`);
    const before = seen.length;
    const run = await check(["--base-url", http.url, "--token-file", file, "--header", "X-Tenant: blue", "--max-requests", "30", ...fast]);
    expect(run.code).toBe(0);
    const sent = seen.slice(before);
    expect(sent.length).toBe(30);
    expect(sent.every((headers) => headers.get("x-tenant") === "blue")).toBe(true);
    expect(sent.some((headers) => headers.get("x-token") === token)).toBe(true);
  });

  it("a YAML config supplies the options, and flags win over it", async () => {
    const file = join(directory, "conformance.yaml");
    await writeFile(file, `baseUrl: ${http.url}\nmaxRequests: 25\nrate: 0\nchecks: [not_a_server_error, envelope_math]\n`);
    const run = await check(["--config", file, "--token", token, "--max-requests", "20"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("20 requests");
    expect(run.stdout).toMatch(/- ignored_auth\s+not run: excluded by --checks/);
    expect(run.stdout).toMatch(/✓ envelope_math/);
  });

  it("--max-failures stops early and --json still gets the (partial) report", async () => {
    const broken = await startFaultyProxy(
      { baseUrl: "http://sandbox.test", fetch: sandbox().fetch },
      { request: (_, headers) => void headers.set("x-token", token) },
    );
    try {
      const json = join(directory, "partial.json");
      const run = await check(["--base-url", broken.url, "--token", token, "--max-failures", "1", "--json", json, ...fast]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain("The failure limit (--max-failures) was reached");
      const report = JSON.parse(await readFile(json, "utf8")) as { stopped: string; newFailures: number };
      expect(report).toMatchObject({ stopped: "failures", newFailures: 1 });
    } finally {
      await broken.close();
    }
  });

  it("a rate limit that does not fit in the run's bounds ends it with exit 3 and a report that says why, no check failed on the 429", async () => {
    const limited = await startFaultyProxy(
      { baseUrl: "http://sandbox.test", fetch: sandbox().fetch },
      {
        request: (url) =>
          url.searchParams.has("pageIndex") ? { status: 429, headers: { "retry-after": "120", "content-type": "application/json" }, body: "{}" } : undefined,
      },
    );
    try {
      const json = join(directory, "limited.json");
      const run = await check(["--base-url", limited.url, "--token", token, "--json", json, ...fast]);
      expect(run.code).toBe(3);
      expect(run.stdout).toContain("The server's rate limit kept the run from finishing within its bounds");
      expect(run.stdout).toContain("the server asked to wait 120 s (Retry-After), more than the 60 s the kit waits for one answer");
      const report = JSON.parse(await readFile(json, "utf8")) as {
        stopped: string;
        findings: { name: string; value: unknown }[];
        checks: { status: string }[];
      };
      expect(report.stopped).toBe("rate-limit");
      expect(report.findings.find((finding) => finding.name === "rate_limit")?.value).toEqual({ status: 429, retryAfterSeconds: 120 });
      expect(report.checks.filter((entry) => entry.status === "failed")).toEqual([]);
    } finally {
      await limited.close();
    }
  });

  it("--max-time shorter than the first answer still writes a report: every check not run, with that reason, and the run fails (nothing verified)", async () => {
    const slow = await startFaultyProxy({ baseUrl: "http://sandbox.test", fetch: sandbox().fetch }, { delayMs: () => 1500 });
    try {
      const json = join(directory, "early.json");
      const run = await check(["--base-url", slow.url, "--token", token, "--max-time", "0.3", "--json", json, ...fast]);
      expect(run.stdout).toContain("The time limit (--max-time) was reached");
      const report = JSON.parse(await readFile(json, "utf8")) as { stopped: string; requests: number; checks: { status: string; skipped: string }[] };
      expect(report).toMatchObject({ stopped: "time", requests: 1 });
      expect(report.checks.every((entry) => entry.status === "not run")).toBe(true);
      expect(report.checks.filter((entry) => entry.skipped === "the run stopped (time) before it ran").length).toBeGreaterThan(10);
      // A run that verified nothing is not a pass, or CI would go green against a server that never answered.
      expect(run.stdout).toContain("Result: nothing was verified: no check reached a verdict");
      expect(run.code).toBe(1);
    } finally {
      await slow.close();
    }
  });

  it("--max-time bounds a slow server's run and writes the partial report; --max-response-time fails the slow answers", async () => {
    const slow = await startFaultyProxy({ baseUrl: "http://sandbox.test", fetch: sandbox().fetch }, { delayMs: () => 400 });
    try {
      const json = join(directory, "slow.json");
      // Each slow operation is judged once and not sent again, so the run's end comes from --max-time only when that falls within a few slow answers.
      const run = await check(["--base-url", slow.url, "--token", token, "--max-time", "1", "--max-response-time", "100", "--json", json, ...fast]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain("The time limit (--max-time) was reached");
      const report = JSON.parse(await readFile(json, "utf8")) as {
        stopped: string;
        checks: { name: string; status: string; failures: { message: string }[] }[];
      };
      expect(report.stopped).toBe("time");
      const slowest = report.checks.find((entry) => entry.name === "max_response_time")!;
      expect(slowest.status).toBe("failed");
      expect(slowest.failures[0]!.message).toMatch(/expected a response within 100 ms \(--max-response-time\); got one after \d+ ms/);
      expect(report.checks.filter((entry) => entry.status === "failed").map((entry) => entry.name)).toEqual(["max_response_time"]);
    } finally {
      await slow.close();
    }
  });
});

describe("bot-conversation check: a server's open-point decision, a baseline and a config", () => {
  it("a single-descriptor trigger list passes as an open point; held to a config's other shape it fails without a baseline, passes with one; its own shape in a config passes", async () => {
    const variant = await createSandbox({ fixture: exampleFixture(), triggerList: "single" });
    const proxy = await startFaultyProxy({ baseUrl: "http://sandbox.test", fetch: variant.fetch });
    const directory = await mkdtemp(join(tmpdir(), "conformance-baseline-"));
    try {
      const open = await check(["--base-url", proxy.url, "--token", token, "--agent-stage-id", fixtureBot, ...fast]);
      expect(open.code).toBe(0);
      expect(open.stdout).toContain("The trigger list is a single descriptor object.");
      const array = join(directory, "array.json");
      await writeFile(array, JSON.stringify({ decisions: { triggerListShape: "array" } }));
      const args = ["--base-url", proxy.url, "--token", token, "--agent-stage-id", fixtureBot, "--config", array, ...fast];
      const baseline = join(directory, "baseline.json");
      const without = await check(args);
      expect(without.code).toBe(1);
      expect(without.stdout).toMatch(/✗ response_schema_conformance/);
      const written = await check([...args, "--baseline", baseline, "--update-baseline"]);
      expect(written.code).toBe(0);
      expect(written.stderr).toMatch(/Baseline written to .*: 1 known failures/);
      const known = JSON.parse(await readFile(baseline, "utf8")) as { failures: { check: string }[]; findings: Record<string, unknown> };
      expect(known.failures.map((failure) => failure.check)).toEqual(["response_schema_conformance"]);
      expect(known.findings["trigger_list_shape"]).toBe("single");
      // Known failures do not count towards --max-failures either.
      const withBaseline = await check([...args, "--baseline", baseline, "--seed", "8", "--max-failures", "1"]);
      expect(withBaseline.code).toBe(0);
      expect(withBaseline.stdout).not.toContain("--max-failures");
      expect(withBaseline.stdout).toContain("(known: in the baseline)");
      expect(withBaseline.stdout).toContain("Result: no new failure");
      const config = join(directory, "conformance.json");
      await writeFile(config, JSON.stringify({ decisions: { triggerListShape: "single" } }));
      expect((await check(["--base-url", proxy.url, "--token", token, "--agent-stage-id", fixtureBot, "--config", config, ...fast])).code).toBe(0);
    } finally {
      await proxy.close();
      await variant.close();
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("a maximum page size of 50 passes as an open point, with a finding, without its decision and with it", async () => {
    const variant = await createSandbox({ fixture: exampleFixture(), maxPageSize: 50 });
    const proxy = await startFaultyProxy({ baseUrl: "http://sandbox.test", fetch: variant.fetch });
    const directory = await mkdtemp(join(tmpdir(), "conformance-decision-"));
    try {
      const args = ["--base-url", proxy.url, "--token", token, "--agent-stage-id", fixtureBot, ...fast];
      const without = await check(args);
      expect(without.code).toBe(0);
      expect(without.stdout).toContain("pageSize=1000 is refused with 400: there is a maximum below 1000.");
      const config = join(directory, "conformance.yaml");
      await writeFile(config, "decisions:\n  maxPageSize: 50\n");
      const run = await check([...args, "--config", config]);
      expect(run.stdout).toContain("Result: every check that ran held");
      expect(run.code).toBe(0);
    } finally {
      await proxy.close();
      await variant.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
