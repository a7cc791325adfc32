/**
 * The Prism mock: time from process start to its first answer, and requests per second for the
 * search operation under a bounded autocannon load on loopback. A plain node:http server that
 * answers Prism's very answer (its body and headers) is measured the same way, as the ceiling of this machine and
 * load generator.
 */
import { performance } from "node:perf_hooks";
import { defaultMockOptions, startMockOnFreePort } from "@bot-conversation/mock";
import { startCeiling } from "./ceiling-server.ts";
import { benchmarkToken } from "./fixtures.ts";
import { formatNumber, markdownTable, type Section } from "./report.ts";
import { compareLoads, loadHeader, loadRow, loadServer, percent, ratioHeader, type ServerLoad } from "./server-load.ts";

const searchPath = "/api/v2/channels/conversations";
/** autocannon in a process of its own (see `server-load.ts`), as the sandbox section loads Prism. */
const load = { connections: 10, warmUpSeconds: 2, durationSeconds: 10 };

async function loadTest(url: string, pid: number): Promise<ServerLoad> {
  return loadServer(pid, { url: `${url}${searchPath}`, headers: { "X-Token": benchmarkToken }, ...load });
}

/** Starts Prism on the bundle, measures start-up and throughput, and always stops it. */
export async function mockServer(): Promise<Section> {
  const started = performance.now();
  // Prism binds a port the system picks, so no other process can take it between a pick and the bind.
  const mock = await startMockOnFreePort(defaultMockOptions, "ignore");
  const firstAnswerMs = performance.now() - started;
  try {
    const prismLoad = await loadTest(mock.url, mock.process.pid!);
    // The ceiling answers Prism's own answer to the same request, head and body.
    const plain = await startCeiling(await fetch(`${mock.url}${searchPath}`, { headers: { "X-Token": benchmarkToken } }));
    const plainLoad = await loadTest(plain.url, plain.pid).finally(() => plain.stop());
    const ofCeiling = compareLoads("Prism, share of the node:http ceiling", [prismLoad], [plainLoad], percent);
    return {
      title: "Prism mock",
      method: `Prism 5 serving the bundled description on 127.0.0.1. Start-up is measured from spawning the process to its first HTTP answer (the launcher's readiness check). Load: autocannon in a process of its own, ${load.connections} connections for ${load.durationSeconds} s after ${load.warmUpSeconds} s of warm-up, on the search operation; the same load on a plain node:http server sending Prism's very answer, body and headers (in a process of its own) is the machine's ceiling. Server CPU: the server process's CPU time (/proc: utime + stime) over the window, 100% being one core always busy; Prism is compared with the ceiling by CPU time per answer (the ceiling's over Prism's), requests per second as information.`,
      table: [
        markdownTable(["Start to first answer"], [[`${formatNumber(firstAnswerMs)} ms`]]),
        "",
        markdownTable(loadHeader("Server, search"), [loadRow(0, "Prism mock", prismLoad), loadRow(0, "plain node:http, same answer", plainLoad)]),
        "",
        markdownTable(ratioHeader("Prism, search", 1), ofCeiling.rows),
      ].join("\n"),
      budgets: [],
    };
  } finally {
    await mock.stop();
  }
}
