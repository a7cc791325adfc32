/**
 * Item 5 of issue 48: servers that read every open point of the seed faithfully, each its own way, pass: no
 * failure, the readings reported as findings. Each server is the sandbox under a set of its switches (one reading
 * of each point it has a switch for) behind a proxy that answers the points it has no switch for another way:
 * times written without an offset, searches with a bad value answered with the value ignored, the trigger list
 * wrapped or keyed by id, DateTime variables taken in every form of ISO 8601, bodies compressed, validators sent.
 * The compressing server is reached over a real socket (a `fetch` in process does not decompress).
 */
import { gzipSync } from "node:zlib";
import { createSandbox, type Sandbox } from "@bot-conversation/sandbox";
import { afterAll, describe, expect, it } from "vitest";
import { type ConformanceOptions, type ConformanceReport, runConformance } from "../src/index.ts";
import { editItems, firing, ignoringInvalidSearchValues, isFire, isSearch, isTriggerList, laxVariable } from "./support/family-faults.ts";
import { editJson, type Fault, faultyFetch, faultyFetchBaseUrl, type ProxiedResponse, startFaultyProxy } from "./support/faulty-proxy.ts";
import { caseTimeoutMs, dateTimeFormAnswers, failing, finding, kitRun, why } from "./support/kit-seeds.ts";
import { exampleFixture, fixtureBot, fixtureConversation, sandboxExportPath } from "./support/sandbox.ts";

/** A proxy's edits of each answer, one after the other. */
type ResponseEdit = (url: URL, response: ProxiedResponse) => void;

/** `latestMessageOn` written without its offset (the seed states one for `startedOn` only). */
const localLatestMessage = editItems((item) => void (item["latestMessageOn"] = String(item["latestMessageOn"]).replace(/(Z|[+-]\d\d:\d\d)$/, ""))).response!;

/** The trigger list wrapped in an object, or keyed by `externalEventId`. */
const triggerListAs =
  (shape: "wrapped" | "map"): ResponseEdit =>
  (url, response) =>
    void (
      isTriggerList(url) &&
      response.status === 200 &&
      editJson(response, (triggers) =>
        shape === "wrapped"
          ? { triggers }
          : Object.fromEntries((triggers as { externalEventId: string }[]).map((trigger) => [trigger.externalEventId, trigger])),
      )
    );

/** Validators and caching headers on every 200 (RFC 9110 §8.8, RFC 9111): an ETag of the body, Last-Modified, Cache-Control. */
const validators: ResponseEdit = (_url, response) => {
  if (response.status !== 200) return;
  response.headers["etag"] = `"${Buffer.from(response.body).toString("base64url").slice(-16)}-${response.body.length}"`;
  response.headers["last-modified"] = "Fri, 20 Nov 2026 09:15:02 GMT";
  response.headers["cache-control"] = "private, max-age=0, must-revalidate";
};

/** Every body of 64 bytes or more compressed with gzip (RFC 9110 §8.4). */
const compressed: ResponseEdit = (_url, response) => {
  if (response.body.length < 64 || response.bytes) return;
  response.bytes = gzipSync(response.body);
  response.headers["content-encoding"] = "gzip";
  response.headers["vary"] = "Accept-Encoding";
};

/** HEAD refused with 405 and `Allow: GET`: the seed lists GET only, so this is a difference of a relation (the head-and-options decision), a finding. */
const headRefused: Fault["request"] = (_url, _headers, _upstream, _body, method) =>
  method === "HEAD" ? { status: 405, headers: { allow: "GET" }, body: "" } : undefined;

/**
 * The points of the seed's Errors table and of its methods, read another faithful way: the trigger list's documented
 * 500 with details for the known bot's id in another letter case (an internal error the seed lists; the token is
 * checked first), and the methods the description does not list performed as a framework does (GET on the fire path
 * 200 with a JSON body, PUT, PATCH and DELETE 204): the seed lists each operation's method and says nothing of others.
 */
const documentedErrorsAndOtherMethods: Fault["request"] = (url, headers, _upstream, _body, method) => {
  if (headers.get("x-token") !== "sandbox-token") return undefined;
  const path = new URL(decodeURIComponent(url.pathname), url);
  const documented = (isTriggerList(path) && method === "GET") || (isSearch(path) && method === "GET") || (isFire(path) && method === "POST");
  if (!documented && !path.pathname.startsWith("/_sandbox/") && ["GET", "PUT", "PATCH", "DELETE"].includes(method))
    return method === "GET" ? { status: 200, headers: { "content-type": "application/json" }, body: '{"events":[]}' } : { status: 204, headers: {}, body: "" };
  const bot = isTriggerList(url) ? decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf("/") + 1)) : undefined;
  if (bot !== undefined && bot !== fixtureBot && bot.toLowerCase() === fixtureBot.toLowerCase())
    return { status: 500, headers: { "content-type": "application/json" }, body: '{"message":"internal error: the bot store is case-sensitive"}' };
  return undefined;
};

/**
 * The points of the body and of a fire's effects, read another faithful way: a chunked body refused with 411 (RFC 9110
 * §15.5.12: a length required), a fire body read in the order of its members (the conversation's identifier first,
 * else 400), and the fired conversation changed by its scenario (a reply: one more message, its text the last) once
 * an event was taken. Made per run: the reply belongs to the run that fired.
 */
const lengthRequiredOrderedScenario = (): Fault => {
  let replied = false;
  return {
    request: async (url, headers, upstream, body, method) => {
      if (!isFire(url) || method !== "POST" || headers.get("x-token") !== "sandbox-token") return undefined;
      if (headers.get("transfer-encoding") === "chunked")
        return { status: 411, headers: { "content-type": "application/json" }, body: '{"message":"length required"}' };
      const first = Object.keys(JSON.parse(body || "{}") as object)[0];
      if (first !== undefined && !["conversationId", "externalConversationId"].includes(first))
        return { status: 400, headers: { "content-type": "application/json" }, body: '{"message":"the conversation comes first"}' };
      const answer = await upstream(url);
      if (answer.status === 200) replied = true;
      return answer;
    },
    response: (url, response) => {
      if (!replied || !isSearch(url) || response.status !== 200) return;
      editJson(response, (page) => {
        for (const item of (page as { items: Record<string, unknown>[] }).items)
          if (item["id"] === fixtureConversation.conversationId) {
            item["messagesCount"] = Number(item["messagesCount"]) + 1;
            item["latestMessageText"] = "The scenario answered the event.";
          }
        return page;
      });
    },
  };
};

/** One fault of a request rule (at most one) and response edits in order, applied to the answers the rule gives too. */
const readingOf = (request: Fault["request"] | undefined, ...edits: ResponseEdit[]): Fault => {
  const edit = (url: URL, response: ProxiedResponse): void => {
    for (const each of edits) each(url, response);
  };
  return {
    ...(request
      ? {
          request: async (url, headers, upstream, body, method) => {
            const answered = await request(url, headers, upstream, body, method);
            if (answered) edit(url, answered);
            return answered;
          },
        }
      : {}),
    response: edit,
  };
};

/** A faithful server: the sandbox's switches, the proxy's reading of the other points, and what the kit must find. */
interface FaithfulServer {
  readonly name: string;
  readonly switches: Parameters<typeof createSandbox>[0];
  /** The proxy's readings; a function when they keep state, made once per run (the runs side by side share nothing). */
  readonly fault: Fault | (() => Fault);
  /** Over a real socket on 127.0.0.1 (what a `fetch` in process cannot do: decompress). */
  readonly socket?: boolean;
  /** Findings the run must report, by name. */
  readonly findings: Readonly<Record<string, unknown>>;
}

const servers: readonly FaithfulServer[] = [
  {
    name: "the sandbox's own readings",
    switches: {},
    fault: {},
    findings: {
      page_index_base: 0,
      trigger_list_shape: "array",
      date_range_end: "inclusive",
      invalid_search_values: { refused: expect.arrayContaining(["pageSize"]), ignored: [] },
      date_time_variable_forms: dateTimeFormAnswers(500, 500, 500, 500),
      relation_differences: {},
    },
  },
  {
    name: "pages from 1, half-open periods, oldest first, letter case ignored, unlisted parameters and bad values ignored, one descriptor, externalConversationId first, problem+json, In, 7 a page up to 25, local latestMessageOn, validators",
    switches: {
      pageBase: 1,
      dateTo: "exclusive",
      order: "startedOn-asc",
      statusCase: "insensitive",
      unknownParameters: "ignore",
      triggerList: "single",
      identifierWins: "externalConversationId",
      errorMediaType: "application/problem+json",
      inboundDirection: "In",
      defaultPageSize: 7,
      maxPageSize: 25,
    },
    fault: readingOf(ignoringInvalidSearchValues.request, localLatestMessage, validators),
    findings: {
      page_index_base: 1,
      date_range_end: "exclusive",
      status_letter_case: "ignored",
      unlisted_query_parameters: "ignored",
      trigger_list_shape: "single",
      identifier_precedence: "externalConversationId",
      inbound_direction_spelling: ["In"],
      default_page_size: 7,
      invalid_search_values: { refused: [], ignored: expect.arrayContaining(["pageSize"]) },
      date_time_offsets: expect.objectContaining({ latestMessageOn: expect.objectContaining({ withOffset: 0 }) }),
    },
  },
  {
    name: "pages from 1, closed periods, latest message first, 50 a page, the trigger list wrapped, DateTime in every ISO 8601 form, gzip over a socket",
    switches: { pageBase: 1, order: "latestMessageOn-desc", defaultPageSize: 50 },
    fault: readingOf(
      laxVariable("deliveryDate", (value) => typeof value === "string" && /^\d{4}-\d\d-\d\d(T\d\d:\d\d:\d\d)?$/.test(value)).request,
      triggerListAs("wrapped"),
      compressed,
    ),
    socket: true,
    findings: {
      page_index_base: 1,
      default_page_size: 50,
      trigger_list_shape: "wrapped",
      date_time_variable_forms: dateTimeFormAnswers(200, 200, 500, 500),
    },
  },
  {
    name: "pages from 0, half-open periods, at most the default page size, the trigger list keyed by id, HEAD refused, validators and gzip over a socket",
    switches: { dateTo: "exclusive", maxPageSize: 20, defaultPageSize: 20 },
    fault: readingOf(headRefused, triggerListAs("map"), validators, compressed),
    socket: true,
    findings: {
      page_index_base: 0,
      date_range_end: "exclusive",
      trigger_list_shape: "map",
      max_page_size: { answer: "refused", status: 400 },
      head_and_options: expect.objectContaining({ HEAD: 405 }),
      relation_differences: { head_as_get: expect.arrayContaining([expect.stringMatching(/^HEAD answered 405 where GET answered/)]) },
    },
  },
  {
    name: "the trigger list's documented 500 with details for the bot's id in another letter case, methods the description does not list performed",
    switches: {},
    fault: readingOf(documentedErrorsAndOtherMethods),
    findings: {
      documented_server_errors: expect.objectContaining({ "listExternalEventTriggers 500": expect.any(Number) }),
      undocumented_methods: expect.objectContaining({ "GET /api/v1/runtime/simple/external/events": 200, "DELETE /api/v2/channels/conversations": 204 }),
      identifier_letter_case: expect.objectContaining({ triggerList: 500 }),
    },
  },
  {
    name: "chunked bodies refused with 411, a fire body read in the order of its members, the fired conversation answered by its scenario",
    switches: {},
    fault: lengthRequiredOrderedScenario,
    findings: {
      relation_differences: expect.objectContaining({
        body_chunked: [expect.stringMatching(/411/)],
        json_member_order: expect.arrayContaining([expect.stringMatching(/became 400/)]),
        fire_changes_its_conversation: [expect.stringMatching(/changed its messagesCount, latestMessageText/)],
      }),
    },
  },
];

/** The seeds each faithful server is checked under. */
const readingSeeds = [1, 2, 3];

const sandboxes: Sandbox[] = [];
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers) await close();
  for (const sandbox of sandboxes) await sandbox.close();
});

/** The proxy's readings for one run. */
const faultOf = (server: FaithfulServer): Fault => (typeof server.fault === "function" ? server.fault() : server.fault);

/** Runs the kit against a faithful server under one seed: firing on, the export read. */
async function runAgainst(server: FaithfulServer, sandbox: Sandbox, seed: number): Promise<ConformanceReport> {
  const options: Partial<ConformanceOptions> = { ...firing, exportPath: sandboxExportPath, examples: 4, maxRequests: 900 };
  if (!server.socket)
    return runConformance(
      kitRun(faultyFetchBaseUrl, seed, { ...options, fetch: faultyFetch({ baseUrl: "http://sandbox.test", fetch: sandbox.fetch }, faultOf(server)) }),
    );
  const proxy = await startFaultyProxy({ baseUrl: "http://sandbox.test", fetch: sandbox.fetch }, faultOf(server));
  closers.push(proxy.close);
  return runConformance(kitRun(proxy.url, seed, options));
}

describe("faithful servers of different readings of every open point pass, with findings only (issue 48, item 5)", () => {
  it.each(servers)("$name", { timeout: caseTimeoutMs }, async (server) => {
    const sandbox = await createSandbox({ fixture: exampleFixture(), ...server.switches });
    sandboxes.push(sandbox);
    const reports = await Promise.all(readingSeeds.map((seed) => runAgainst(server, sandbox, seed)));
    for (const report of reports) {
      expect(failing(report), why(report)).toEqual([]);
      expect(report.passed).toBe(true);
      for (const [name, value] of Object.entries(server.findings)) expect(finding(report, name), `${name}, seed ${report.seed}`).toEqual(value);
    }
    // Compression reached the kit over the socket, and the kit read the bodies whole.
    if (server.socket) expect(reports.every((report) => report.checks.find((check) => check.name === "response_schema_conformance")!.passed > 0)).toBe(true);
  });
});
