/**
 * The README's `scrape_config`, as Prometheus runs it: Debian's real `prometheus` scrapes a real sandbox
 * (its process, started with an administrator token) on 127.0.0.1 with the token read from a
 * `credentials_file` and sent as `Authorization: Bearer`. Where prometheus is not installed the test is not
 * run, and says so in one line (CI installs it: .ci/provision.sh).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { programForTests } from "@bot-conversation/test-support/machine-programs";
import { hangGuardMs, heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parse, stringify } from "yaml";
import { type LaunchedSandbox, launchSandbox } from "../src/index.ts";

const prometheusInstalled = programForTests("prometheus", "Prometheus scrape tests");
const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
/** The README's scrape configuration: its one `yaml` block with `scrape_configs`. */
const readmeScrapeConfig = [...readme.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((match) => match[1]!).find((yaml) => yaml.includes("scrape_configs:"));
const adminToken = "prometheus-admin-token-of-the-test";

interface ScrapeConfig {
  job_name: string;
  metrics_path: string;
  authorization: { credentials_file: string };
  static_configs: { targets: string[] }[];
}

/** A free port on 127.0.0.1 (asked of the system, then let go for Prometheus to take). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(!prometheusInstalled)("Prometheus scrapes the sandbox with the README's scrape_config", () => {
  let folder: string;
  let sandbox: LaunchedSandbox;
  let prometheus: ChildProcess;
  let prometheusUrl: string;
  let prometheusOutput = "";

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "sandbox-prometheus-"));
    sandbox = await launchSandbox(["--admin-token", adminToken]);
    const target = new URL(sandbox.url).host;
    const search = await fetch(`${sandbox.url}/api/v2/channels/conversations?pageSize=1`, { headers: { "X-Token": "sandbox-token" } });
    expect(search.status).toBe(200);
    // The README's job as written, pointed at this sandbox and a file of this test; beside it, the same job with a wrong token.
    const [job] = (parse(readmeScrapeConfig!) as { scrape_configs: ScrapeConfig[] }).scrape_configs;
    expect(job!.static_configs).toEqual([{ targets: ["127.0.0.1:4011"] }]);
    await writeFile(join(folder, "admin-token"), `${adminToken}\n`);
    await writeFile(join(folder, "wrong-token"), "not-the-admin-token\n");
    const readmeJob = { ...job!, authorization: { credentials_file: join(folder, "admin-token") }, static_configs: [{ targets: [target] }] };
    const wrongJob = { ...readmeJob, job_name: "wrong-token", authorization: { credentials_file: join(folder, "wrong-token") } };
    // A scrape every second (our choice for the test, Prometheus's default is a minute): the test waits for the first.
    const config = { global: { scrape_interval: "1s", scrape_timeout: "1s" }, scrape_configs: [readmeJob, wrongJob] };
    await writeFile(join(folder, "prometheus.yml"), stringify(config));
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      "prometheus",
      [`--config.file=${join(folder, "prometheus.yml")}`, `--storage.tsdb.path=${join(folder, "data")}`, `--web.listen-address=127.0.0.1:${port}`],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    prometheus.stdout!.on("data", (chunk: Buffer) => (prometheusOutput += chunk.toString()));
    prometheus.stderr!.on("data", (chunk: Buffer) => (prometheusOutput += chunk.toString()));
  }, heavyTestTimeoutMs);

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null && prometheus.signalCode === null) {
      prometheus.kill("SIGTERM");
      await once(prometheus, "exit");
    }
    await sandbox?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  /** Prometheus's active targets, by job, once each has been scraped (asked again until then: its API answers within a second or two). */
  async function scrapedTargets(): Promise<Map<string, { health: string; lastError: string }>> {
    const until = Date.now() + hangGuardMs(15_000);
    for (;;) {
      const answer = await fetch(`${prometheusUrl}/api/v1/targets?state=active`).catch(() => undefined);
      if (answer?.ok) {
        const { data } = (await answer.json()) as { data: { activeTargets: { labels: { job: string }; health: string; lastError: string }[] } };
        const targets = new Map(data.activeTargets.map((target) => [target.labels.job, target]));
        if (targets.size === 2 && [...targets.values()].every((target) => target.health !== "unknown")) return targets;
      }
      if (prometheus.exitCode !== null) throw new Error(`prometheus exited with ${prometheus.exitCode}:\n${prometheusOutput}`);
      if (Date.now() > until) throw new Error(`prometheus scraped no target within the guard:\n${prometheusOutput}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** One instant query's samples. */
  async function query(expression: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
    const answer = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expression)}`);
    const { data } = (await answer.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
    return data.result;
  }

  test(
    "the README's job is up, and the sandbox's metrics are in Prometheus; the same job with a wrong token is down with a 401",
    async () => {
      const targets = await scrapedTargets();
      expect(targets.get("bot-conversation-sandbox")).toMatchObject({ health: "up", lastError: "" });
      expect(targets.get("wrong-token")).toMatchObject({ health: "down", lastError: expect.stringContaining("401") });
      expect(await query('up{job="bot-conversation-sandbox"}')).toMatchObject([{ value: [expect.any(Number), "1"] }]);
      // The sandbox's metrics, scraped: the one search sent before Prometheus started.
      expect(await query('sandbox_requests_total{job="bot-conversation-sandbox",operation="searchConversations"}')).toMatchObject([
        { metric: { status: "200", workspace: "default" }, value: [expect.any(Number), "1"] },
      ]);
      expect(await query('sandbox_workspaces_loaded{job="bot-conversation-sandbox"}')).toMatchObject([{ value: [expect.any(Number), "1"] }]);
      // The token is in no line either process printed.
      expect(prometheusOutput + sandbox.output()).not.toContain(adminToken);
    },
    heavyTestTimeoutMs,
  );
});
