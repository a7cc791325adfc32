/**
 * The conformance kit: a full default run (`bot-conversation check` with only --base-url and
 * --token) against the sandbox on loopback, within 60 s, and the same with the example bot and
 * firing allowed (every phase), within 60 s; then the first run with no rate limit, for
 * requests per second and the time of each phase. Baseline in the same run: the same number of
 * plain fetches of the search operation against the same server, i.e. the cost of HTTP alone.
 */
import { type ConformanceReport, runConformance } from "@bot-conversation/conformance";
import { createSandbox } from "@bot-conversation/sandbox";
import { listenOnLoopback } from "./loopback.ts";
import { formatNumber, markdownTable, type Section } from "./report.ts";

const token = "sandbox-token";
const budgetSeconds = 60;
/** The description's example bot and conversation, which the sandbox's default data starts with. */
const exampleBot = "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c";
const exampleConversation = "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c";

/** Serves the sandbox's fetch handler over node:http on loopback. */
export async function serveSandbox(handler: (request: Request) => Promise<Response>) {
  return listenOnLoopback(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
    const body = chunks.length > 0 ? new Uint8Array(Buffer.concat(chunks)) : undefined;
    const response = await handler(
      new Request(`http://127.0.0.1${incoming.url ?? "/"}`, { method: incoming.method ?? "GET", headers, ...(body ? { body } : {}) }),
    );
    outgoing.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
  });
}

/** Runs the kit against the sandbox with its defaults, then unthrottled, and a plain-fetch baseline. */
export async function conformanceRun(): Promise<Section> {
  const sandbox = await createSandbox();
  const server = await serveSandbox((request) => sandbox.fetch(request));
  try {
    const defaultRun: ConformanceReport = await runConformance({ baseUrl: server.url, token, seed: 1 });
    // The same defaults with a bot and firing: every phase, the fire rules and their near misses included.
    const firingRun: ConformanceReport = await runConformance({
      baseUrl: server.url,
      token,
      seed: 1,
      agentStageId: exampleBot,
      allowFire: true,
      conversationId: exampleConversation,
    });
    const fast: ConformanceReport = await runConformance({ baseUrl: server.url, token, seed: 1, rate: 0 });
    const started = performance.now();
    for (let index = 0; index < fast.requests; index++) {
      const response = await fetch(`${server.url}/api/v2/channels/conversations?pageSize=20`, { headers: { "x-token": token } });
      await response.arrayBuffer();
    }
    const plainMs = performance.now() - started;
    const perSecond = (requests: number, milliseconds: number): string => formatNumber((requests / milliseconds) * 1000);
    const phases = fast.phases.map((phase) => [
      phase.phase,
      phase.checks.join(", ") || "(discovery, setup)",
      phase.requests,
      formatNumber(phase.durationMs, 1),
    ]);
    return {
      title: "Conformance kit",
      method: `runConformance against the sandbox (generated data, defaults) served over node:http on 127.0.0.1. The default run keeps the default rate limit of 50 requests/s; the unthrottled run (rate 0) gives requests/s and the time per phase (a phase feeds the checks listed). Baseline: the same number of plain sequential fetches of one search page.`,
      table: [
        markdownTable(
          ["Run", "requests", "seconds", "requests/s", "checks passed"],
          [
            [
              "default (rate 50/s)",
              defaultRun.requests,
              formatNumber(defaultRun.durationMs / 1000, 2),
              perSecond(defaultRun.requests, defaultRun.durationMs),
              String(defaultRun.passed),
            ],
            [
              "default with --agent-stage-id and --allow-fire (rate 50/s)",
              firingRun.requests,
              formatNumber(firingRun.durationMs / 1000, 2),
              perSecond(firingRun.requests, firingRun.durationMs),
              String(firingRun.passed),
            ],
            ["unthrottled (rate 0)", fast.requests, formatNumber(fast.durationMs / 1000, 2), perSecond(fast.requests, fast.durationMs), String(fast.passed)],
            ["baseline: plain fetch of one search page", fast.requests, formatNumber(plainMs / 1000, 2), perSecond(fast.requests, plainMs), "-"],
          ],
        ),
        "",
        markdownTable(["Phase (unthrottled)", "Checks", "requests", "ms"], phases),
      ].join("\n"),
      budgets: [
        {
          name: `full default run against the sandbox within ${budgetSeconds} s`,
          ok: defaultRun.durationMs <= budgetSeconds * 1000 && defaultRun.passed,
          detail: `${formatNumber(defaultRun.durationMs / 1000, 2)} s, ${defaultRun.requests} requests, every check held: ${defaultRun.passed}`,
        },
        {
          name: `full default run with a bot and firing against the sandbox within ${budgetSeconds} s`,
          ok: firingRun.durationMs <= budgetSeconds * 1000 && firingRun.passed,
          detail: `${formatNumber(firingRun.durationMs / 1000, 2)} s, ${firingRun.requests} requests, every check held: ${firingRun.passed}`,
        },
      ],
    };
  } finally {
    await server.close();
    await sandbox.close();
  }
}
