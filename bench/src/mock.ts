/**
 * The Prism mock: time from process start to its first answer, and requests per second for the
 * search operation under a bounded autocannon load on loopback. A plain node:http server that
 * answers with the same body is measured the same way, as the ceiling of this machine and load
 * generator.
 */
import { performance } from "node:perf_hooks";
import { defaultMockOptions, startMockOnFreePort } from "@bot-conversation/mock";
import { benchmarkToken, exampleValue } from "./fixtures.ts";
import { listenOnLoopback } from "./loopback.ts";
import { formatNumber, markdownTable, type Section } from "./report.ts";
import { loadServer, type ServerLoad } from "./server-load.ts";

const searchPath = "/api/v2/channels/conversations";
/** autocannon in a process of its own (see `server-load.ts`), as the sandbox section loads Prism. */
const load = { connections: 10, warmUpSeconds: 2, durationSeconds: 10 };

async function loadTest(url: string, pid: number): Promise<ServerLoad> {
  return loadServer(pid, { url: `${url}${searchPath}`, headers: { "X-Token": benchmarkToken }, ...load });
}

function loadRow(name: string, result: ServerLoad): (string | number)[] {
  return [
    name,
    formatNumber(result.requestsPerSecond),
    formatNumber(result.p50, 1),
    formatNumber(result.p99, 1),
    `${formatNumber(result.serverCpuShare * 100)}%`,
    result.non2xx,
    result.errors,
  ];
}

/** Starts Prism on the bundle, measures start-up and throughput, and always stops it. */
export async function mockServer(): Promise<Section> {
  const started = performance.now();
  // Prism binds a port the system picks, so no other process can take it between a pick and the bind.
  const mock = await startMockOnFreePort(defaultMockOptions, "ignore");
  const firstAnswerMs = performance.now() - started;
  try {
    const prismLoad = await loadTest(mock.url, mock.process.pid!);
    const body = JSON.stringify(exampleValue("ConversationPageSingle"));
    const plain = await listenOnLoopback((_request, response) => response.writeHead(200, { "content-type": "application/json" }).end(body));
    const plainLoad = await loadTest(plain.url, process.pid).finally(() => plain.close());
    return {
      title: "Prism mock",
      method: `Prism 5 serving the bundled description on 127.0.0.1. Start-up is measured from spawning the process to its first HTTP answer (the launcher's readiness check). Load: autocannon in a process of its own, ${load.connections} connections for ${load.durationSeconds} s after ${load.warmUpSeconds} s of warm-up, on the search operation; the same load on a plain node:http server sending the same body (in the bench's process) is the machine's ceiling. Server CPU: the server process's CPU time over the window, 100% being one core always busy.`,
      table: [
        markdownTable(["Start to first answer"], [[`${formatNumber(firstAnswerMs)} ms`]]),
        "",
        markdownTable(
          ["Server", "requests/s", "p50 ms", "p99 ms", "server CPU", "non-2xx", "errors"],
          [loadRow("Prism mock, search", prismLoad), loadRow("plain node:http, same body", plainLoad)],
        ),
      ].join("\n"),
      budgets: [],
    };
  } finally {
    await mock.stop();
  }
}
