/**
 * The Prism mock: time from process start to its first answer, and requests per second for the
 * search operation under a bounded autocannon load on loopback. A plain node:http server that
 * answers with the same body is measured the same way, as the ceiling of this machine and load
 * generator.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import { benchmarkToken, exampleValue } from "./fixtures.ts";
import { listenOnLoopback } from "./loopback.ts";
import { formatNumber, markdownTable, type Section } from "./report.ts";

const require = createRequire(import.meta.url);
const searchPath = "/api/v2/channels/conversations";
const load = { connections: 10, durationSeconds: 10 };

async function freePort(): Promise<number> {
  const probe = await listenOnLoopback(() => undefined);
  const port = Number(new URL(probe.url).port);
  await probe.close();
  return port;
}

async function loadTest(url: string): Promise<autocannon.Result> {
  return autocannon({ url: `${url}${searchPath}`, headers: { "X-Token": benchmarkToken }, connections: load.connections, duration: load.durationSeconds });
}

function loadRow(name: string, result: autocannon.Result): (string | number)[] {
  return [name, formatNumber(result.requests.average), formatNumber(result.latency.p50, 1), formatNumber(result.latency.p99, 1), result.non2xx, result.errors];
}

/** Starts Prism on the bundle, measures start-up and throughput, and always stops it. */
export async function mockServer(): Promise<Section> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const prismBin = require.resolve("@stoplight/prism-cli/dist/index.js");
  const bundle = require.resolve("@bot-conversation/openapi/openapi.yaml");
  const started = performance.now();
  const prism = spawn(process.execPath, [prismBin, "mock", "-h", "127.0.0.1", "-p", String(port), bundle], { stdio: "ignore" });
  try {
    let firstAnswerMs: number | undefined;
    while (firstAnswerMs === undefined) {
      if (performance.now() - started > 60_000) throw new Error("Prism did not answer within 60 s");
      if (prism.exitCode !== null) throw new Error(`Prism exited with code ${prism.exitCode}`);
      const response = await fetch(`${url}${searchPath}`, { headers: { "X-Token": benchmarkToken } }).catch(() => undefined);
      if (response?.ok) firstAnswerMs = performance.now() - started;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const prismLoad = await loadTest(url);
    const body = JSON.stringify(exampleValue("ConversationPageFirst"));
    const plain = await listenOnLoopback((_request, response) => response.writeHead(200, { "content-type": "application/json" }).end(body));
    const plainLoad = await loadTest(plain.url).finally(() => plain.close());
    return {
      title: "Prism mock",
      method: `Prism 5 serving the bundled description on 127.0.0.1. Start-up is measured from spawning the process to the first 200 of the search operation. Load: autocannon, ${load.connections} connections for ${load.durationSeconds} s, on the search operation; the same load on a plain node:http server sending the same body is the machine's ceiling.`,
      table: [
        markdownTable(["Start to first answer"], [[`${formatNumber(firstAnswerMs)} ms`]]),
        "",
        markdownTable(["Server", "requests/s", "p50 ms", "p99 ms", "non-2xx", "errors"], [loadRow("Prism mock, search", prismLoad), loadRow("plain node:http, same body", plainLoad)]),
      ].join("\n"),
      budgets: [],
    };
  } finally {
    prism.kill("SIGTERM");
  }
}
