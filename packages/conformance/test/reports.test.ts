import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { launchChromium } from "@bot-conversation/test-support/browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDescription } from "../src/description.ts";
import { type CommandRun, check } from "./support/command.ts";
import { editJson, type FaultyProxy, startFaultyProxy } from "./support/faulty-proxy.ts";
import { fixtureBot, useSandbox } from "./support/sandbox.ts";

const run = promisify(execFile);
const sandbox = useSandbox();
const token = "sandbox-token";
const searchPath = loadDescription().operations.get("searchConversations")!.path;

/** Every file the run wrote, by name, and what it printed. */
interface Outputs {
  command: CommandRun;
  html: string;
  junit: string;
  json: string;
  summary: string;
  htmlPath: string;
}

describe("reports of a real run with failures (JUnit, GitHub Actions, HTML)", () => {
  let proxy: FaultyProxy;
  let directory: string;
  let outputs: Outputs;
  beforeAll(async () => {
    // Two faults that need the token to show: a duplicated item on later pages (a walk of several
    // requests) and a text/plain search answer.
    proxy = await startFaultyProxy(
      { baseUrl: "http://sandbox.test", fetch: sandbox().fetch },
      {
        response: (url, response) => {
          if (url.pathname !== searchPath || response.status !== 200) return;
          const later =
            Number(url.searchParams.get("pageIndex") ?? "0") > 0 &&
            [...url.searchParams.keys()].every((name) => ["agentStageId", "pageSize", "pageIndex"].includes(name));
          if (later)
            editJson(response, (page) => {
              const items = (page as { items: { id: string }[] }).items;
              if (items.length > 1) items[items.length - 1] = { ...items[items.length - 1]!, id: "conversation-000" };
              return page;
            });
          if (url.searchParams.get("status") === "Closed") response.headers["content-type"] = "text/plain";
        },
      },
    );
    directory = await mkdtemp(join(tmpdir(), "conformance-reports-"));
    const file = (name: string): string => join(directory, name);
    const command = await check(
      [
        "--base-url",
        proxy.url,
        "--token",
        token,
        "--agent-stage-id",
        fixtureBot,
        "--rate",
        "0",
        "--examples",
        "10",
        "--seed",
        "2",
        "--html",
        file("report.html"),
        "--junit",
        file("report.xml"),
        "--json",
        file("report.json"),
      ],
      { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: file("summary.md") },
    );
    const read = (name: string): Promise<string> => readFile(file(name), "utf8");
    outputs = {
      command,
      html: await read("report.html"),
      junit: await read("report.xml"),
      json: await read("report.json"),
      summary: await read("summary.md"),
      htmlPath: file("report.html"),
    };
  });
  afterAll(async () => {
    await proxy.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("fails on exactly the two faults", () => {
    expect(outputs.command.code).toBe(1);
    const report = JSON.parse(outputs.json) as { checks: { name: string; status: string }[]; counts: Record<string, number> };
    expect(report.checks.filter((check) => check.status === "failed").map((check) => check.name)).toEqual(["content_type_conformance", "paging_walk"]);
    expect(report.counts["failed"]).toBe(2);
  });

  it("never writes the token anywhere", () => {
    for (const text of [outputs.command.stdout, outputs.command.stderr, outputs.html, outputs.junit, outputs.json, outputs.summary])
      expect(text).not.toContain(token);
  });

  it("JUnit: a test case per failure with message and body, findings as test cases, not-run checks skipped with their reason", () => {
    expect(outputs.junit).toMatch(
      /<testcase classname="conformance.paging_walk" name="paging_walk #1 \(searchConversations\)"[^>]*>\s*<failure message="expected the walk to yield totalItemCount distinct conversations; got \d+ duplicate items[^"]*" type="paging_walk"><!\[CDATA\[Sent: GET /,
    );
    expect(outputs.junit).toContain("Rule: Seed, Page envelope");
    expect(outputs.junit).toMatch(/<testcase classname="findings" name="default_page_size"/);
    expect(outputs.junit).toMatch(
      /<testcase classname="conformance.payload_acceptance" name="payload_acceptance"[^>]*>\s*<skipped\/>\s*<system-out>\s*<!\[CDATA\[not run: firing is off/,
    );
  });

  it("GitHub Actions: an ::error annotation per failure on stdout, and a Markdown job summary", () => {
    const annotations = outputs.command.stdout.split("\n").filter((line) => line.startsWith("::"));
    expect(annotations.filter((line) => line.startsWith("::error ")).map((line) => /^::error title=([a-z_]+) /.exec(line)?.[1])).toEqual([
      "content_type_conformance",
      "paging_walk",
    ]);
    expect(annotations.every((line) => !line.slice(2).includes("\n"))).toBe(true);
    expect(annotations.find((line) => line.includes("paging_walk"))).toMatch(/::expected the walk.*%0ASent: GET .*%0ARule: /);
    expect(outputs.summary).toContain(`## Conformance of ${proxy.url}`);
    expect(outputs.summary).toContain("| `paging_walk` | failed |");
    expect(outputs.summary).toMatch(/\| `payload_acceptance` \| not run \| firing is off/);
  });

  it("HTML: one self-contained page in Chromium, whose every curl line replays against the server", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const requested: string[] = [];
      page.on("request", (request) => requested.push(request.url()));
      await page.goto(pathToFileURL(outputs.htmlPath).href);
      expect(requested).toEqual([pathToFileURL(outputs.htmlPath).href]);
      expect(await page.locator("script").count()).toBe(0);
      expect(await page.locator(".counts").innerText()).toMatch(/^\d+ passed, 2 failed, 0 not judged, \d+ not run$/);
      const curls = await page.locator("pre.curl").allInnerTexts();
      // The walk's failure carries every page it read; the content-type failure its one request.
      expect(curls.length).toBeGreaterThan(3);
      for (const curl of curls) {
        expect(curl).toMatch(/^curl -sS -i .*"X-Token: \$BOT_CONVERSATION_TOKEN"/);
        const { stdout } = await run("bash", ["-c", curl], { env: { ...process.env, BOT_CONVERSATION_TOKEN: token } });
        expect(stdout, curl).toMatch(/^HTTP\/1\.1 200 /);
      }
    } finally {
      await browser.close();
    }
  });
});
