/**
 * What the sandbox's logs and metrics cost a search: the same searches through the same engine, in
 * process, without the observer (as the MSW handlers open the sandbox), through it with its metrics alone
 * (`createSandbox`, quiet), and with a JSON log line per request as the command writes them (to /dev/null),
 * in rotating rounds in the same run.
 */
import { createWriteStream } from "node:fs";
import { createLogger, createSandbox, type Sandbox } from "@bot-conversation/sandbox";
import { createSandboxHandlers } from "@bot-conversation/sandbox/msw";
import { type Budget, formatNumber, markdownTable, measureRounds, type Section } from "./report.ts";

/** A filtered search of the default data, as a client sends it. */
const searchUrl = "http://127.0.0.1:4011/api/v2/channels/conversations?status=Active&pageSize=20";
const headers = { "x-token": "sandbox-token" };

/** The sandbox's observed paths against none, searched in process. */
export async function sandboxObserve(): Promise<Section> {
  const options = { conversations: 2_000 };
  const devNull = createWriteStream("/dev/null");
  const sandboxes: Record<string, Sandbox> = {
    "no observer (as the MSW handlers open it)": await createSandboxHandlers(options).sandbox,
    "metrics (createSandbox, quiet)": await createSandbox(options),
    "metrics and a JSON log line per request (as the command)": await createSandbox({ ...options, logger: await createLogger(devNull, "json") }),
  };
  try {
    const search = (sandbox: Sandbox) => async () => {
      const response = await sandbox.fetch(searchUrl, { headers });
      if (response.status !== 200) throw new Error(`a search answered ${response.status}`);
      await response.arrayBuffer();
    };
    const results = await measureRounds(Object.fromEntries(Object.entries(sandboxes).map(([name, sandbox]) => [name, search(sandbox)])), {
      rounds: 7,
      timeMs: 1_000,
    });
    const [none, metrics, logged] = results as [(typeof results)[number], (typeof results)[number], (typeof results)[number]];
    // Within noise: the observed search's median is no further from the unobserved one's than the unobserved
    // search's own rounds are from each other (its slowest round over its fastest).
    const budgets: Budget[] = [metrics, logged].map((result) => ({
      name: `a search with ${result === metrics ? "the metrics" : "the metrics and the log"} within the noise of one without (its rounds' spread)`,
      ok: result.meanMs <= none.meanMs * none.spread,
      detail: `${formatNumber(result.meanMs * 1000, 1)} µs against ${formatNumber(none.meanMs * 1000, 1)} µs (x${formatNumber(result.meanMs / none.meanMs, 3)}, ${formatNumber((result.meanMs - none.meanMs) * 1000, 1)} µs more); the unobserved rounds' spread x${formatNumber(none.spread, 3)}`,
    }));
    return {
      title: "Sandbox search: the cost of logs and metrics",
      method:
        "The same filtered search (`status=Active&pageSize=20` over 2,000 conversations) through `sandbox.fetch` in process, with no observer, with the metrics (a counter and a histogram per request, the request id), and with the metrics and a pino JSON line per request written to /dev/null; tinybench, 7 rotating rounds of 1 s, the median of the rounds' means; within noise means no further from the unobserved median than the unobserved rounds are from each other.",
      table: markdownTable(
        ["Search", "Mean (µs)", "Searches/s", "Against none", "Rounds' spread"],
        results.map((result) => [
          result.name,
          formatNumber(result.meanMs * 1000, 1),
          formatNumber(result.opsPerSecond),
          `x${formatNumber(result.meanMs / none.meanMs, 3)}`,
          `x${formatNumber(result.spread, 3)}`,
        ]),
      ),
      budgets,
    };
  } finally {
    await Promise.all(Object.values(sandboxes).map((sandbox) => sandbox.close()));
    devNull.end();
  }
}
