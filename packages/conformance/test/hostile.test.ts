import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type HostileServer, startHostileServer } from "@bot-conversation/test-support/hostile-server";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { afterEach, describe, expect, it } from "vitest";
import { check } from "./support/command.ts";
import { kitRequestTimeoutMs } from "./support/sandbox.ts";

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const token = "tok-SECRET-hostile-123";
/** A small run; the request time-out a hang guard for a loaded machine, not a bound on speed (no case here relies on a time-out). */
const fast = ["--max-requests", "40", "--rate", "0", "--seed", "1", "--timeout", String(kitRequestTimeoutMs)];
/** Characters that act on a terminal or a reader: none may reach a report raw. */
const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** A run of check against `server` writing every report; resolves to the run and the text of each report. */
async function checkWithReports(env: NodeJS.ProcessEnv = {}, extra: string[] = []) {
  const directory = await mkdtemp(join(tmpdir(), "kit-hostile-"));
  const files = { json: join(directory, "r.json"), junit: join(directory, "r.xml"), html: join(directory, "r.html"), summary: join(directory, "summary.md") };
  await writeFile(files.summary, "");
  const run = await check(
    ["--base-url", server!.url, "--token", token, ...fast, "--json", files.json, "--junit", files.junit, "--html", files.html, ...extra],
    {
      GITHUB_STEP_SUMMARY: files.summary,
      ...env,
    },
  );
  const reports = {
    json: await readFile(files.json, "utf8"),
    junit: await readFile(files.junit, "utf8"),
    html: await readFile(files.html, "utf8"),
    summary: await readFile(files.summary, "utf8"),
  };
  return { run, reports };
}

// Each case starts a server and runs the kit in process: a guard against a hang sized for a busy machine, not a bound on speed.
describe("check against a hostile server", { timeout: heavyTestTimeoutMs }, () => {
  it("bodies of control sequences and workflow commands: the human report shows them escaped, and under GITHUB_ACTIONS no line starts a command but ours", async () => {
    server = await startHostileServer("workflow-commands");
    const { run, reports } = await checkWithReports({ GITHUB_ACTIONS: "true" });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("Received: 200 not json\\r ::error file=x,line=1::pwned\\r::add-mask::value ::set-output");
    expect(run.stdout).toContain("\\x1b[2J");
    expect(run.stdout).not.toMatch(raw);
    const commands = run.stdout.split("\n").filter((line) => /^\s*::/.test(line));
    expect(commands.length).toBeGreaterThan(0);
    // Only the kit's annotations, each one whole line, its data escaped.
    for (const line of commands) expect(line).toMatch(/^::(error|notice|warning) title=[^:]*::/);
    expect(run.stdout).not.toContain("##[");
    for (const report of [reports.junit, reports.html, reports.summary]) expect(report).not.toMatch(raw);
    expect(reports.html).toContain("\\x1b[2J");
    // The JSON report is for machines: the body's text kept exact.
    expect(
      JSON.parse(reports.json).checks.some((entry: { failures: { responseExcerpt: string }[] }) =>
        entry.failures.some((failure) => failure.responseExcerpt.includes("\u001b[2J")),
      ),
    ).toBe(true);
  });

  it("a token echoed in a header's value and name and in the data: absent from every report, the summary and the output", async () => {
    server = await startHostileServer("echo-token");
    const { run, reports } = await checkWithReports({ GITHUB_ACTIONS: "true" }, ["--agent-stage-id", "bot-1", "--max-requests", "400"]);
    expect(server.requests.some((request) => request.headers["x-token"] === token)).toBe(true);
    expect(server.requests.length).toBeGreaterThan(5);
    // As sent, and in lower case (a header name echoing it is read in lower case).
    for (const text of [run.stdout, run.stderr, ...Object.values(reports)]) expect(text.toLowerCase()).not.toContain(token.toLowerCase());
    // What the server echoed is there, redacted: the report still says what came back.
    expect(reports.json).toContain("$BOT_CONVERSATION_TOKEN");
    expect(run.stdout.toLowerCase()).toContain("x-ratelimit-$bot_conversation_token");
  });

  it("credentials in --base-url are refused, without quoting them, and nothing is sent", async () => {
    server = await startHostileServer("echo-token");
    const run = await check(["--base-url", server.url.replace("http://", "http://user:pass-SECRET-9@"), "--token", token, ...fast]);
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toBe("error: baseUrl: expected no user name or password in the URL (the token goes in X-Token, other credentials in --header)\n");
    expect(server.requests).toEqual([]);
  });

  it("--token-file is read by the one rule: a file of two lines is refused, naming the file, quoting nothing of it", async () => {
    server = await startHostileServer("echo-token");
    const file = join(await mkdtemp(join(tmpdir(), "kit-token-")), "token.txt");
    await writeFile(file, `${token}\nsecond-line-SECRET\n`);
    const run = await check(["--base-url", server.url, "--token-file", file, ...fast]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`error: --token-file ${file}: the file holds 2 lines; expected one line holding the access token (nothing else)\n`);
    expect(server.requests).toEqual([]);
  });

  it("an endless body: the run ends with an error naming the limit, in process", async () => {
    server = await startHostileServer("endless-body");
    const run = await check(["--base-url", server.url, "--token", token, ...fast]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `error: The server at ${server.url} cannot be read: GET /api/v2/channels/conversations answered 200, its body over maxResponseBytes (16777216 bytes)\n`,
    );
    expect(server.written()).toBeLessThan(128 * 1024 * 1024);
  });
});
