/**
 * A held-out "real service" for the recorder's tests: a small node:http server on 127.0.0.1 that is
 * neither the sandbox nor Prism, with data of its own and choices of its own on the open points
 * (pages counted from 1, a default page size of 3, page sizes capped at 5, the inbound direction
 * spelt `Incoming`, errors as `application/problem+json`). `deviate` makes it break the description
 * (a status spelt `active`, a member without `role`, a redirect) and add a field it does not list.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { type LoopbackServer, listenOnLoopback } from "@bot-conversation/test-support/loopback";
import type { ConversationSummary, ExternalEventTrigger } from "@bot-conversation/types";

/** The service's only accepted token. */
export const realToken = "real-service-token-7f3a9c";

/** The bot of the data. */
export const realBot = "bot-7c1e";

/** End users' words and names in the data: none may be found in a recording. */
export const personalWords = [
  "Maria Gonzalez",
  "Kenji Watanabe",
  "Olu Adeyemi",
  "maria.g",
  "kenji_w",
  "my card ends 4417",
  "where is parcel 88",
  "thanks, bye",
  "call me back please",
];

const user = (id: string, name: string | null) => ({ id, name, nickname: null, role: "User" as const });
const bot = { id: realBot, name: "Helper", nickname: null, role: "Bot" as const };
const platform = (session: string, userName: string | null) => ({
  platform: { session: { id: session, apps: null }, client: { app: null, externalId: `ext-${session}`, userName }, options: { prompterMode: false } },
  originalChannelId: "platform",
});

/** The conversations of the bot, in no particular order. */
export const realConversations: ConversationSummary[] = [
  [
    "c-01",
    "directline",
    "Active",
    4,
    "2026-03-01T09:00:00+03:00",
    "2026-03-01T09:20:00+03:00",
    "Incoming",
    "my card ends 4417",
    user("u-1", "Maria Gonzalez"),
    null,
  ],
  [
    "c-02",
    "platform",
    "Closed",
    2,
    "2026-03-02T10:00:00Z",
    "2026-03-02T10:05:00Z",
    "Outbound",
    "thanks, bye",
    user("u-2", "Kenji Watanabe"),
    platform("s-2", "kenji_w"),
  ],
  [
    "c-03",
    "messenger_a",
    "Operator",
    7,
    "2026-03-03T11:30:00+01:00",
    "2026-03-04T08:00:00+01:00",
    "Incoming",
    "where is parcel 88",
    user("u-3", "Olu Adeyemi"),
    null,
  ],
  ["c-04", "directline", "Closed", 1, "2026-03-05T12:00:00Z", "2026-03-05T12:00:30Z", "Outbound", "thanks, bye", user("u-1", "Maria Gonzalez"), null],
  [
    "c-05",
    "platform",
    "Active",
    3,
    "2026-03-06T07:45:00-05:00",
    "2026-03-06T08:10:00-05:00",
    "Incoming",
    "call me back please",
    user("u-4", null),
    platform("s-5", "maria.g"),
  ],
  ["c-06", "messenger_b", "Closed", 5, "2026-03-07T16:00:00Z", "2026-03-07T16:30:00Z", "Outbound", "where is parcel 88", user("u-2", "Kenji Watanabe"), null],
  [
    "c-07",
    "directline",
    "Active",
    6,
    "2026-03-08T18:00:00+02:00",
    "2026-03-08T19:00:00+02:00",
    "Incoming",
    "my card ends 4417",
    user("u-5", "Olu Adeyemi"),
    null,
  ],
].map(([id, channelId, status, messagesCount, startedOn, latestMessageOn, latestMessageDirection, latestMessageText, member, channelData]) => ({
  id: id as string,
  channelId: channelId as string,
  status: status as ConversationSummary["status"],
  messagesCount: messagesCount as number,
  members: [bot, member as ConversationSummary["members"][number]],
  startedOn: startedOn as string,
  channelData: channelData as ConversationSummary["channelData"],
  latestMessageOn: latestMessageOn as string,
  latestMessageDirection: latestMessageDirection as string,
  latestMessageText: latestMessageText as string,
  closingStatus: status === "Closed" ? "SessionClosed" : null,
  closingReason: status === "Closed" ? "TimedOut" : null,
}));

/** The bot's triggers, as the service lists them. */
export const realTriggers: ExternalEventTrigger[] = [
  {
    externalEventId: "order-shipped",
    externalEventName: "Order shipped",
    parameters: { orderNumber: { name: "Order number", type: "String" }, amount: { name: "Amount", type: "Number" } },
  },
  { externalEventId: "call-back", externalEventName: "Call back", parameters: {} },
];

/** How the service's pages are made (its own choices on the open points). */
const pageBase = 1;
const defaultPageSize = 3;
const maxPageSize = 5;

/** A problem body of this service. */
function problem(response: ServerResponse, status: number, detail: string): void {
  response.writeHead(status, { "Content-Type": "application/problem+json", "X-Service": "real" });
  response.end(JSON.stringify({ title: "Error", status, detail }));
}

function json(response: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "X-Service": "real", "Cache-Control": "no-store" });
  response.end(text);
}

/** The conversations matching a search's filters, newest start first. */
export function matching(query: URLSearchParams, data = realConversations): ConversationSummary[] {
  const within = (value: string, from: string | null, to: string | null) =>
    (from === null || Date.parse(value) >= Date.parse(from)) && (to === null || Date.parse(value) <= Date.parse(to));
  return data
    .filter(
      (item) =>
        (query.get("agentStageId") === null || query.get("agentStageId") === realBot) &&
        (query.get("status") === null || item.status === query.get("status")) &&
        (query.get("channelId") === null || item.channelId === query.get("channelId")) &&
        within(item.startedOn, query.get("startFromDate"), query.get("startToDate")) &&
        within(item.latestMessageOn, query.get("latestMessageFromDate"), query.get("latestMessageToDate")),
    )
    .sort((a, b) => Date.parse(b.startedOn) - Date.parse(a.startedOn));
}

/** Starts the service; `deviate` breaks the description as a faulty upstream would. */
export async function startRealService(options: { deviate?: boolean; tls?: { key: string; cert: string } } = {}): Promise<LoopbackServer> {
  const data = options.deviate
    ? realConversations.map((item, index) =>
        index === 6
          ? { ...item, status: "active" as ConversationSummary["status"] }
          : index === 5
            ? { ...item, members: [bot, { id: "u-2", name: "Kenji Watanabe", nickname: null }] as never }
            : index === 4
              ? { ...item, sentiment: "calm" }
              : item,
      )
    : realConversations;
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    response.sendDate = false;
    const url = new URL(request.url ?? "/", "http://real");
    if (request.headers["x-token"] !== realToken) return problem(response, 401, "Authorization failed.");
    if (request.method === "GET" && url.pathname === "/api/v2/channels/conversations") {
      const pageSize = Math.min(Number(url.searchParams.get("pageSize") ?? defaultPageSize), maxPageSize);
      const pageIndex = Number(url.searchParams.get("pageIndex") ?? pageBase);
      if (!(pageSize >= 1) || !(pageIndex >= pageBase)) return problem(response, 400, "Bad paging.");
      const all = matching(url.searchParams, data);
      const from = (pageIndex - pageBase) * pageSize;
      const items = all.slice(from, from + pageSize);
      const totalPageCount = Math.ceil(all.length / pageSize);
      return json(response, {
        items,
        hasMore: pageIndex - pageBase + 1 < totalPageCount,
        pageIndex,
        pageSize,
        totalItemCount: all.length,
        totalPageCount,
        fromItemInclusive: Math.min(from, all.length),
        toItemExclusive: Math.min(from + pageSize, all.length),
      });
    }
    const triggers = /^\/api\/v1\/runtime\/simple\/external\/events\/([^/]+)$/.exec(url.pathname);
    if (request.method === "GET" && triggers) {
      if (options.deviate && decodeURIComponent(triggers[1]!) === "moved") {
        response.writeHead(302, { Location: `/api/v1/runtime/simple/external/events/${realBot}` });
        return response.end();
      }
      if (decodeURIComponent(triggers[1]!) !== realBot) return problem(response, 404, "No such bot.");
      return json(response, realTriggers);
    }
    if (request.method === "POST" && url.pathname === "/api/v1/runtime/simple/external/events") {
      const body = JSON.parse(Buffer.concat(chunks).toString() || "{}") as {
        conversationId?: string;
        externalEventId?: string;
        externalEventPayload?: Record<string, unknown>;
      };
      const trigger = realTriggers.find((candidate) => candidate.externalEventId === body.externalEventId);
      if (!trigger || !data.some((item) => item.id === body.conversationId)) return problem(response, 404, "No such trigger or conversation.");
      for (const [code, value] of Object.entries(body.externalEventPayload ?? {})) {
        const type = trigger.parameters[code]?.type;
        if (type === "Number" && typeof value !== "number") return problem(response, 500, `Variable ${code}: expected a number.`);
      }
      response.writeHead(200, { "X-Service": "real" });
      return response.end();
    }
    return problem(response, 404, "No such route.");
  };
  const listener = (request: IncomingMessage, response: ServerResponse) => void handle(request, response);
  if (!options.tls) return listenOnLoopback(createServer(listener));
  // The same loopback listening over TLS: https.Server closes its connections as http.Server does.
  const server = await listenOnLoopback(createHttpsServer(options.tls, listener) as unknown as Server);
  return { ...server, url: server.url.replace(/^http:/, "https:") };
}
