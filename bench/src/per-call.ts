/**
 * Per-call overhead: the same search and fire calls through raw fetch, openapi-fetch alone, our
 * client with its defaults (retries on but not triggered, timeout set), axios (fetch adapter) and
 * ky. `fetch` is replaced by a function that answers with a prepared Response, so the figures are
 * the clients' own cost.
 */
import { createBotConversationClient } from "@bot-conversation/client";
import type { paths } from "@bot-conversation/types";
import axios from "axios";
import ky from "ky";
import createClient from "openapi-fetch";
// The page check is internal to the client; the bench times it from the built module.
import { toPage } from "../../packages/client/dist/internal/page.js";
import { benchmarkToken, type ConversationPage, exampleValue } from "./fixtures.ts";
import { type Budget, formatNumber, markdownTable, measure, measureRounds, type Section, type Throughput } from "./report.ts";

const baseUrl = "http://127.0.0.1:4010";
/** Rounds of 0.6 s per client and call, in rotating order (see `measureRounds`). */
const rounds = 5;
const searchPath = "/api/v2/channels/conversations";
const firePath = "/api/v1/runtime/simple/external/events";
const searchBody = JSON.stringify(exampleValue<ConversationPage>("ConversationPageFirst"));
const jsonHeaders = { "content-type": "application/json" };
const emptyHeaders = { "content-length": "0" };
const query = { agentStageId: "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c", pageSize: 2 } as const;
const fireRequest = exampleValue<{ conversationId: string; externalEventId: string; externalEventPayload: Record<string, string> }>("FireStringVariable");

/** Answers like the service: the search page for GET, an empty 200 for POST. */
async function preparedFetch(input: URL | Request | string, init?: RequestInit): Promise<Response> {
  const method = input instanceof Request ? input.method : (init?.method ?? "GET");
  return method === "POST" ? new Response(null, { status: 200, headers: emptyHeaders }) : new Response(searchBody, { status: 200, headers: jsonHeaders });
}

/** Each contender's search and fire call, set up once. */
function contenders(): Record<string, { search: () => Promise<unknown>; fire: () => Promise<unknown> }> {
  const searchUrl = `${baseUrl}${searchPath}?agentStageId=${query.agentStageId}&pageSize=${query.pageSize}`;
  const headers = { "X-Token": benchmarkToken };
  const openapiFetch = createClient<paths>({ baseUrl, fetch: preparedFetch, headers });
  const ours = createBotConversationClient({ baseUrl, token: benchmarkToken, fetch: preparedFetch });
  const axiosClient = axios.create({ adapter: "fetch", baseURL: baseUrl, headers, env: { fetch: preparedFetch } });
  const kyClient = ky.create({ baseUrl, headers, fetch: preparedFetch, retry: 0 });
  return {
    "raw fetch + json()": {
      search: async () => (await preparedFetch(searchUrl, { headers })).json(),
      fire: async () => preparedFetch(`${baseUrl}${firePath}`, { method: "POST", headers: { ...headers, ...jsonHeaders }, body: JSON.stringify(fireRequest) }),
    },
    "openapi-fetch alone": {
      search: async () => openapiFetch.GET(searchPath, { params: { query } }),
      fire: async () => openapiFetch.POST(firePath, { body: fireRequest }),
    },
    "@bot-conversation/client": {
      search: async () => ours.searchConversations(query),
      fire: async () => ours.fireExternalEvent(fireRequest),
    },
    "axios (fetch adapter)": {
      search: async () => axiosClient.get(searchPath, { params: query }),
      fire: async () => axiosClient.post(firePath, fireRequest),
    },
    ky: {
      search: async () => kyClient.get(searchPath.slice(1), { searchParams: query }).json(),
      fire: async () => kyClient.post(firePath.slice(1), { json: fireRequest }),
    },
  };
}

/** The client's page check, alone, on the parsed search example (the built module: it is internal, not exported). */
function pageCheck(): () => void {
  const body: unknown = JSON.parse(searchBody);
  const fail = (problem: string): never => {
    throw new Error(`the benchmark page fails the check: ${problem}`);
  };
  return () => void toPage(body, fail);
}

function byName(results: Throughput[], name: string): Throughput {
  const result = results.find((candidate) => candidate.name === name);
  if (!result) throw new Error(`no result for ${name}`);
  return result;
}

function budgetsFor(call: string, results: Throughput[]): Budget[] {
  const ours = byName(results, "@bot-conversation/client");
  const openapiFetch = byName(results, "openapi-fetch alone");
  const ratio = ours.meanMs / openapiFetch.meanMs;
  return [
    {
      name: `${call}: client within 1.25x of openapi-fetch alone`,
      ok: ratio <= 1.25,
      detail: `${formatNumber(ratio, 2)}x (${formatNumber(ours.meanMs * 1000, 1)} µs vs ${formatNumber(openapiFetch.meanMs * 1000, 1)} µs)`,
    },
    ...["axios (fetch adapter)", "ky"].map((rival) => {
      const other = byName(results, rival);
      return {
        name: `${call}: client faster than ${rival}`,
        ok: ours.opsPerSecond > other.opsPerSecond,
        detail: `${formatNumber(ours.opsPerSecond)} vs ${formatNumber(other.opsPerSecond)} ops/s`,
      };
    }),
  ];
}

/** Runs the per-call comparison for the search and the fire call. */
export async function perCallOverhead(): Promise<Section> {
  const clients = contenders();
  const rows: (string | number)[][] = [];
  const budgets: Budget[] = [];
  let searchMeanMs = 0;
  for (const call of ["search", "fire"] as const) {
    const results = await measureRounds(Object.fromEntries(Object.entries(clients).map(([name, calls]) => [name, calls[call]])), {
      rounds,
      timeMs: 600,
      warmupMs: 200,
    });
    const raw = byName(results, "raw fetch + json()");
    for (const result of results) {
      rows.push([
        call,
        result.name,
        formatNumber(result.opsPerSecond),
        formatNumber(result.meanMs * 1000, 1),
        `${formatNumber(result.meanMs / raw.meanMs, 2)}x`,
        `±${formatNumber(result.relativeMarginOfError, 1)}%`,
        `${formatNumber(result.spread, 2)}x`,
      ]);
    }
    budgets.push(...budgetsFor(call, results));
    if (call === "search") searchMeanMs = byName(results, "@bot-conversation/client").meanMs;
  }
  const [check] = await measure({ "page envelope check alone": pageCheck() });
  return {
    title: "Per-call overhead",
    method:
      `tinybench, ${rounds} rounds of 0.6 s per client after 0.2 s warm-up, in rotating order; each figure is the median of the rounds' means, and the margin the median of theirs. ` +
      "`fetch` is replaced by a function that returns a prepared `Response` (the description's `firstPage` example for search, an empty 200 for fire), so only the clients' own work is measured. The client's figures include its checks: the search's query and page envelope, the fire request's fields. The page check is also timed alone, on the parsed `firstPage` example.",
    table: [
      markdownTable(["Call", "Client", "ops/s", "mean µs", "vs raw fetch", "margin", "slowest / fastest round"], rows),
      "",
      markdownTable(
        ["Check", "mean µs", "share of the client's search"],
        [[check!.name, formatNumber(check!.meanMs * 1000, 2), `${formatNumber((check!.meanMs / searchMeanMs) * 100, 1)}%`]],
      ),
    ].join("\n"),
    budgets,
  };
}
