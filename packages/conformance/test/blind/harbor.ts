/**
 * Blind server "harbor": a server of the Bot Conversation Service written from the seed alone
 * (/work/shared/seed/bot-conversation-service.md), with its own reading of every open point and its own data.
 * Started faithful, or with deviations (ids of `harborDeviations` in manifest.ts) switched on.
 *
 * Its readings of the open points (each one ours):
 * - pages count from 0; default page size 20; a page size above 100 is served and reported as 100;
 * - periods are inclusive at both ends; a date without an offset is UTC; a date alone is midnight UTC;
 * - filters combine with AND; an invalid search value is refused with 400 naming the parameter;
 * - `status` is matched in the exact case only (another case is refused);
 * - a search without a valid token is refused with 403 (the seed states 401 only for operations 2 and 3);
 * - items newest first (startedOn descending, then id);
 * - startedOn carries the conversation's own offset (+03:00, -05:00, +05:30 or Z); latestMessageOn is UTC
 *   written without an offset;
 * - the inbound direction is spelled `Inbound`;
 * - the trigger list is a JSON array of descriptors; conversationId wins over externalConversationId;
 * - a DateTime variable takes a date, or a date-time with or without offset and fraction (extended format);
 * - unknown variable codes fail validation (500); extra fields of a File are allowed;
 * - JSON answers are gzip-compressed when asked, with a strong ETag honoured by If-None-Match (304);
 * - the export is `GET /export/conversations/{id}`.
 *
 * Run alone: `pnpm exec node test/blind/harbor.ts [--port 8080] [--deviation id ...]`.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

/** The token harbor accepts. */
export const harborToken = "harbor-token-7f3a";
/** Bots of harbor's data. */
export const harborBots = ["alpha-stage-01", "beta-stage-02"] as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Message {
  id: string;
  at: number;
  text: string;
  outbound: boolean;
}
interface Conversation {
  id: string;
  bot: string;
  channelId: string;
  status: "Active" | "Closed" | "Operator";
  closingStatus: string | null;
  closingReason: string | null;
  startedAt: number;
  offsetMinutes: number;
  sessionId: string | null;
  prompterMode: boolean;
  userName: string | null;
  nickname: string | null;
  messages: Message[];
}

const channels = ["directline", "messenger_a", "messenger_b", "platform"];
const offsets = [180, -300, 330, 0];
const reasons = ["TimedOut", "ClosedByScenarioAction", "ClosedByOperator", "ConversationRestarted"];

function buildConversations(): Conversation[] {
  const list: Conversation[] = [];
  const base = Date.UTC(2026, 2, 1, 8, 0, 0);
  for (let i = 0; i < 33; i++) {
    const bot = i < 26 ? harborBots[0] : harborBots[1];
    const channelId = channels[(i * 3) % 4]!;
    const status = (["Active", "Closed", "Operator", "Closed"] as const)[i % 4]!;
    const startedAt = base + i * (7 * 3600_000 + 13 * 60_000) + (i % 3) * 1000;
    const messages: Message[] = [];
    const count = 1 + (i % 5);
    for (let m = 0; m < count; m++) {
      messages.push({ id: `h${i}-m${m}`, at: startedAt + (m + 1) * 37 * 60_000, text: `Message ${m} of harbor ${i}`, outbound: (i + m) % 2 === 0 });
    }
    list.push({
      id: `harbor-${String(i).padStart(3, "0")}`,
      bot,
      channelId,
      status,
      closingStatus: status === "Closed" ? "SessionClosed" : status === "Operator" ? "Initiated" : i % 8 === 0 ? "NotInitiated" : null,
      closingReason: status === "Closed" ? reasons[(i >> 1) % 4]! : null,
      startedAt,
      offsetMinutes: offsets[i % 4]!,
      sessionId: channelId === "platform" ? `sess-${1000 + i}` : null,
      prompterMode: i % 2 === 0,
      userName: i % 3 === 0 ? null : `User ${i}`,
      nickname: i % 2 === 1 ? `nick${i}` : null,
      messages,
    });
  }
  return list;
}

interface Trigger {
  externalEventId: string;
  externalEventName: string;
  parameters: Record<string, { name: string; type: string }>;
}
const triggersOfBot: Record<string, Trigger[]> = {
  [harborBots[0]]: [
    {
      externalEventId: "order-paid",
      externalEventName: "Order paid",
      parameters: {
        amount: { name: "Amount", type: "Number" },
        paidOn: { name: "Paid on", type: "DateTime" },
        buyer: { name: "Buyer", type: "PersonName" },
        note: { name: "Note", type: "String" },
      },
    },
    {
      externalEventId: "document-ready",
      externalEventName: "Document ready",
      parameters: {
        document: { name: "Document", type: "File" },
        details: { name: "Details", type: "ComplexObject" },
        urgent: { name: "Urgent", type: "Boolean" },
      },
    },
    { externalEventId: "ping", externalEventName: "Ping", parameters: {} },
  ],
  [harborBots[1]]: [{ externalEventId: "beta-wake", externalEventName: "Wake up", parameters: { reason: { name: "Reason", type: "String" } } }],
};

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}
/** An instant written in the given offset, e.g. 2026-03-01T11:00:00+03:00 (Z for 0). */
function withOffset(at: number, offsetMinutes: number): string {
  const d = new Date(at + offsetMinutes * 60_000);
  const wall = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  if (offsetMinutes === 0) return `${wall}Z`;
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${wall}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
function utcWithoutOffset(at: number): string {
  return withOffset(at, 0).slice(0, -1);
}

const dateForm = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
/** Reads an ISO 8601 date or date-time (extended format); undefined when it is not one. `ignoreOffset` reads the wall clock as UTC. */
function parseInstant(text: string, ignoreOffset = false): number | undefined {
  const m = dateForm.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  let at = Date.UTC(Number(y), month - 1, day, Number(h), Number(mi), Number(s), Number(`0.${frac || "0"}`) * 1000);
  if (new Date(at).getUTCDate() !== day) return undefined;
  if (zone && zone !== "Z" && !ignoreOffset) {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    at -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return at;
}

class Refusal extends Error {
  readonly status: number;
  readonly details: Json;
  constructor(status: number, message: string, details: Json = null) {
    super(message);
    this.status = status;
    this.details = details;
  }
}

/** Options of a harbor server. */
export interface HarborOptions {
  /** Deviation ids to switch on (manifest.ts). */
  deviations?: Iterable<string>;
  /** Port on 127.0.0.1; 0 picks one. */
  port?: number;
}

/** A running harbor server. */
export interface RunningBlindServer {
  baseUrl: string;
  close(): Promise<void>;
}

/** Starts harbor on 127.0.0.1. */
export async function startHarbor(options: HarborOptions = {}): Promise<RunningBlindServer> {
  const on = new Set(options.deviations ?? []);
  const dev = (id: string) => on.has(id);
  const conversations = buildConversations();
  const byId = new Map(conversations.map((c) => [c.id, c]));
  const dropped = new Set<string>();
  const fired: Json[] = [];

  const summaryOf = (c: Conversation): Json => {
    const last = c.messages[c.messages.length - 1]!;
    const direction = last.outbound ? (dev("outbound-lower-messenger-b") && c.channelId === "messenger_b" ? "outbound" : "Outbound") : "Inbound";
    const messageCount = dev("messages-count-off-vs-export") ? historyOf(c).length : c.messages.length;
    return {
      id: c.id,
      channelId: c.channelId,
      status: c.status,
      messagesCount: dev("messages-count-string") ? String(messageCount) : messageCount,
      members: membersOf(c, false),
      startedOn: dev("started-no-offset") ? utcWithoutOffset(c.startedAt) : withOffset(c.startedAt, c.offsetMinutes),
      channelData: channelDataOf(c),
      latestMessageOn: utcWithoutOffset(last.at),
      latestMessageDirection: direction,
      latestMessageText: dev("latest-text-null-operator") && c.status === "Operator" ? null : last.text,
      closingStatus: c.closingStatus,
      closingReason: dev("closing-reason-bad-enum") && c.closingReason === "TimedOut" ? "Timeout" : c.closingReason,
    };
  };
  const membersOf = (c: Conversation, exported: boolean): Json[] => {
    const bot: Record<string, Json> = { id: `bot-${c.bot}`, name: "Harbor helper", role: "Bot" };
    const user: Record<string, Json> = { id: `user-${c.id}`, name: c.userName, role: dev("member-role-lower-user") ? "user" : "User" };
    if (!exported || dev("export-member-extra")) {
      bot["nickname"] = null;
      user["nickname"] = c.nickname;
    }
    return [bot, user];
  };
  const channelDataOf = (c: Conversation): Json =>
    c.sessionId === null
      ? null
      : {
          platform: {
            session: { id: c.sessionId, apps: null },
            client: { app: null, externalId: `client-${c.id}`, userName: c.userName },
            options: { prompterMode: dev("prompter-mode-string") ? String(c.prompterMode) : c.prompterMode },
          },
          originalChannelId: "platform",
        };
  const historyOf = (c: Conversation): Json[] => {
    const [bot, user] = membersOf(c, true) as [Json, Json];
    const history: Json[] = [
      {
        id: `${c.id}-e0`,
        type: "Event",
        timestamp: withOffset(c.startedAt, c.offsetMinutes),
        eventName: "scenario-started",
        scenarioId: null,
        scenarioName: "Greeting",
      },
    ];
    for (const m of c.messages) {
      history.push({
        id: m.id,
        type: "Message",
        timestamp: withOffset(m.at, c.offsetMinutes),
        text: m.text,
        from: m.outbound ? bot : user,
        recipient: m.outbound ? user : bot,
        buttons: m.outbound ? [{ title: "Yes", value: 1, type: "imBack", isSelected: false }] : null,
        recognizedIntents: m.outbound ? null : [{ id: "i1", name: "greeting", score: "0.93" }],
        knowledgeBaseAnswers: null,
        attachments: null,
      });
    }
    if (c.status === "Operator") history.push({ id: `${c.id}-e9`, type: "Event", timestamp: null, eventName: "TransferToOperatorInitiated" });
    return history;
  };
  const exportOf = (c: Conversation): Json => ({
    id: c.id,
    channelId: c.channelId,
    status: dev("export-status-disagrees") && c.status === "Closed" ? "Active" : c.status,
    closingStatus: c.closingStatus,
    closingReason: c.closingReason,
    channelData: channelDataOf(c),
    members: membersOf(c, true),
    history: historyOf(c),
  });

  const search = (query: URLSearchParams): Json => {
    const single = (name: string): string | undefined => {
      const all = query.getAll(name);
      if (all.length > 1) throw new Refusal(400, `${name}: expected one value, got ${all.length}`);
      return all[0];
    };
    const dateOf = (name: string, ignoreOffset = false): number | undefined => {
      const text = single(name);
      if (text === undefined) return undefined;
      const at = parseInstant(text, ignoreOffset);
      if (at === undefined) throw new Refusal(400, `${name}: expected an ISO 8601 date or date-time`);
      return at;
    };
    const integerOf = (name: string, min: number): number | undefined => {
      const text = single(name);
      if (text === undefined) return undefined;
      if (!/^\d+$/.test(text) || Number(text) < min) throw new Refusal(400, `${name}: expected an integer of at least ${min}`);
      return Number(text);
    };
    const agent = single("agentStageId");
    const channel = single("channelId");
    const status = single("status");
    if (status !== undefined && !["Active", "Closed", "Operator"].includes(status)) throw new Refusal(400, "status: expected one of Active, Closed, Operator");
    const startFrom = dateOf("startFromDate", dev("start-from-offset-ignored"));
    const startTo = dateOf("startToDate");
    const latestFrom = dateOf("latestMessageFromDate");
    let latestTo = dateOf("latestMessageToDate");
    if (latestTo !== undefined && dev("latest-to-day-late")) latestTo += 86_400_000;
    let size = integerOf("pageSize", 1) ?? 20;
    if (size > 100) size = 100;
    const index = integerOf("pageIndex", 0) ?? 0;

    const statusMatches = (c: Conversation) =>
      status === undefined || c.status === status || (dev("operator-matches-active") && status === "Operator" && c.status === "Active");
    const channelMatches = (c: Conversation) => channel === undefined || c.channelId === channel;
    const matches = (c: Conversation, withFilters: boolean): boolean => {
      if (dropped.has(c.id)) return false;
      if (agent !== undefined && c.bot !== agent && !dev("agent-filter-ignored")) return false;
      if (!withFilters) return true;
      const latest = c.messages[c.messages.length - 1]!.at;
      if (dev("channel-status-or") && channel !== undefined && status !== undefined) {
        if (!statusMatches(c) && !channelMatches(c)) return false;
      } else if (!statusMatches(c) || !channelMatches(c)) return false;
      if (startFrom !== undefined && c.startedAt < startFrom) return false;
      if (startTo !== undefined && c.startedAt > startTo && !dev("start-to-ignored")) return false;
      if (latestFrom !== undefined && (dev("latest-from-on-started") ? c.startedAt : latest) < latestFrom) return false;
      if (latestTo !== undefined && latest > latestTo) return false;
      return true;
    };
    let matching = conversations.filter((c) => matches(c, true)).sort((a, b) => b.startedAt - a.startedAt || a.id.localeCompare(b.id));
    if (dev("channel-with-agent-drops-first") && channel !== undefined && agent !== undefined) matching = matching.slice(1);
    const total = dev("total-ignores-filters") ? conversations.filter((c) => matches(c, false)).length : matching.length;
    const served = dev("cap-unreported") && size > 10 ? 10 : size;
    let from = Math.min(index * size, matching.length);
    if (dev("overlap-pages") && index > 0 && from > 0) from -= 1;
    const items = matching.slice(from, from + served);
    const pageCount = dev("page-count-exact-multiple") ? Math.floor(total / size) + 1 : Math.ceil(total / size);
    const lastPage = index === pageCount - 1;
    return {
      items: items.map(summaryOf),
      hasMore: dev("has-more-on-last") && lastPage ? true : index < pageCount - 1,
      pageIndex: index,
      pageSize: dev("page-size-echo-default") ? 20 : size,
      totalItemCount: total,
      totalPageCount: pageCount,
      fromItemInclusive: dev("from-equals-page-index") ? index : from,
      toItemExclusive: dev("to-exclusive-last-page") && lastPage ? from + size : from + items.length,
    };
  };

  const validateValue = (type: string, value: unknown): string | undefined => {
    const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
    switch (type) {
      case "String":
        return typeof value === "string" ? undefined : "expected a string";
      case "Number":
        if (dev("number-accepts-numeric-string") && typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return undefined;
        return typeof value === "number" && Number.isFinite(value) ? undefined : "expected a number";
      case "Boolean":
        return typeof value === "boolean" ? undefined : "expected true or false";
      case "DateTime": {
        if (typeof value !== "string" || parseInstant(value) === undefined) return "expected an ISO 8601 date-time string";
        if (dev("datetime-refuses-non-utc-offset") && /[+-]\d{2}:?\d{2}$/.test(value) && !/[+-]00:?00$/.test(value)) return "expected a UTC date-time";
        return undefined;
      }
      case "ComplexObject":
        return isObject ? undefined : "expected a JSON object";
      case "PersonName":
        return typeof value === "string" && value.trim() !== "" ? undefined : "expected a string holding a full name";
      case "File": {
        if (!isObject) return "expected an object with name and fileUrl";
        const file = value as Record<string, unknown>;
        if (typeof file["name"] !== "string" || !/\.[^./\\]+$/.test(file["name"])) return "expected name: a file name with its extension";
        if (dev("file-accepts-missing-url") && file["fileUrl"] === undefined) return undefined;
        if (typeof file["fileUrl"] !== "string" || !URL.canParse(file["fileUrl"])) return "expected fileUrl: a download link";
        return undefined;
      }
      default:
        return `variable of unknown type ${type}`;
    }
  };

  /** Finds the conversation and the trigger a fire names; throws the 400 or 404 it answers otherwise. */
  const locate = (body: unknown): { conversation: Conversation; trigger: Trigger; request: Record<string, unknown> } | undefined => {
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw new Refusal(400, "body: expected a JSON object");
    const request = body as Record<string, unknown>;
    for (const field of ["conversationId", "externalConversationId", "externalEventId"]) {
      if (request[field] !== undefined && typeof request[field] !== "string") throw new Refusal(400, `${field}: expected a string`);
    }
    const eventId = request["externalEventId"] as string | undefined;
    if (eventId === undefined) throw new Refusal(400, "externalEventId: required");
    const conversationId = request["conversationId"] as string | undefined;
    const externalId = request["externalConversationId"] as string | undefined;
    if (conversationId === undefined && externalId === undefined) throw new Refusal(400, "conversationId or externalConversationId: one is required");
    let conversation: Conversation | undefined;
    if (conversationId !== undefined) conversation = byId.get(conversationId);
    else conversation = conversations.find((c) => c.sessionId !== null && `${c.sessionId}|livechat` === externalId);
    if (conversation !== undefined && dropped.has(conversation.id)) conversation = undefined;
    if (conversation === undefined) {
      if (dev("fire-unknown-conversation-200")) return undefined;
      throw new Refusal(404, "no conversation with the given identifier");
    }
    const trigger = triggersOfBot[conversation.bot]?.find((t) => t.externalEventId === eventId);
    if (trigger === undefined) throw new Refusal(404, `no trigger ${JSON.stringify(eventId)} for this conversation's bot`);
    return { conversation, trigger, request };
  };

  const fire = (body: unknown): void => {
    const located = locate(body);
    if (located === undefined) return;
    const { conversation, trigger, request } = located;
    const payload = request["externalEventPayload"];
    const problems: Json[] = [];
    if (payload !== undefined) {
      if (typeof payload !== "object" || payload === null || Array.isArray(payload))
        problems.push({ field: "externalEventPayload", problem: "expected a JSON object" });
      else
        for (const [code, value] of Object.entries(payload)) {
          const parameter = Object.hasOwn(trigger.parameters, code) ? trigger.parameters[code] : undefined;
          const problem = parameter === undefined ? "no such variable in this trigger" : validateValue(parameter.type, value);
          if (problem !== undefined) problems.push({ field: `externalEventPayload.${code}`, problem });
        }
    }
    if (problems.length > 0) throw new Refusal(dev("validation-400") ? 400 : 500, "variable values failed validation", problems);
    fired.push({ conversationId: conversation.id, externalEventId: trigger.externalEventId });
    if (dev("fire-drops-conversation")) dropped.add(conversation.id);
  };

  const send = (
    request: IncomingMessage,
    response: ServerResponse,
    status: number,
    body: Json | undefined,
    contentType = "application/json; charset=utf-8",
  ) => {
    if (body === undefined) {
      response.writeHead(status, { "content-length": "0" });
      response.end();
      return;
    }
    let bytes: Buffer = Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = { "content-type": contentType, vary: "Accept-Encoding" };
    if (status === 200) {
      const tag = `"${createHash("sha1").update(bytes).digest("base64url").slice(0, 20)}"`;
      headers["etag"] = tag;
      const asked = request.headers["if-none-match"];
      if (asked?.split(",").some((t) => t.trim() === tag || t.trim() === `W/${tag}` || t.trim() === "*")) {
        response.writeHead(304, { etag: tag, vary: "Accept-Encoding" });
        response.end();
        return;
      }
    }
    if (/\bgzip\b/.test(String(request.headers["accept-encoding"] ?? "")) && !/\bgzip;\s*q=0(?:\.0*)?\b/.test(String(request.headers["accept-encoding"]))) {
      bytes = gzipSync(bytes);
      headers["content-encoding"] = "gzip";
    }
    headers["content-length"] = String(bytes.length);
    response.writeHead(status, headers);
    response.end(bytes);
  };
  const refuse = (request: IncomingMessage, response: ServerResponse, refusal: Refusal) =>
    send(request, response, refusal.status, refusal.details === null ? { error: refusal.message } : { error: refusal.message, details: refusal.details });

  const readBody = async (request: IncomingMessage): Promise<string> => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > 1_000_000) throw new Refusal(413, "body: larger than 1 MB");
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString("utf8");
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://harbor.local");
    const path = url.pathname;
    const method = request.method ?? "GET";
    const token = request.headers["x-token"];
    const bearer = request.headers.authorization === `Bearer ${harborToken}`;
    const tokenValid = token === harborToken;

    if (path === "/api/v2/channels/conversations") {
      const readMethod = method === "GET" || method === "HEAD" || (dev("search-delete-200") && method === "DELETE");
      if (!readMethod) {
        response.setHeader("allow", "GET, HEAD");
        return refuse(request, response, new Refusal(405, `${method}: only GET and HEAD are allowed here`));
      }
      if (!tokenValid && !(dev("search-no-token-accepted") && token === undefined))
        return refuse(request, response, new Refusal(403, "X-Token: missing or not valid"));
      return send(request, response, 200, search(url.searchParams));
    }
    const triggerPath = /^\/api\/v1\/runtime\/simple\/external\/events\/([^/]+)$/.exec(path);
    if (triggerPath) {
      if (method !== "GET" && method !== "HEAD") {
        response.setHeader("allow", "GET, HEAD");
        return refuse(request, response, new Refusal(405, `${method}: only GET and HEAD are allowed here`));
      }
      if (!tokenValid)
        return refuse(request, response, new Refusal(dev("triggers-missing-token-403") && token === undefined ? 403 : 401, "X-Token: missing or not valid"));
      const bot = decodeURIComponent(triggerPath[1]!);
      const triggers = Object.hasOwn(triggersOfBot, bot) ? triggersOfBot[bot] : undefined;
      if (triggers === undefined) {
        if (dev("triggers-unknown-bot-200")) return send(request, response, 200, []);
        return refuse(request, response, new Refusal(404, `no bot ${JSON.stringify(bot)}`));
      }
      const list: Json = triggers.map((t) =>
        dev("trigger-parameters-array")
          ? { ...t, parameters: Object.entries(t.parameters).map(([code, p]) => ({ code, ...p })) }
          : (t as unknown as { [key: string]: Json }),
      );
      return send(request, response, 200, list, dev("triggers-text-plain") ? "text/plain; charset=utf-8" : undefined);
    }
    if (path === "/api/v1/runtime/simple/external/events") {
      if (method !== "POST") {
        response.setHeader("allow", "POST");
        return refuse(request, response, new Refusal(405, `${method}: only POST is allowed here`));
      }
      const authorized =
        tokenValid || (dev("fire-any-token") && typeof token === "string" && token !== "") || (dev("fire-bearer-accepted") && token === undefined && bearer);
      if (!authorized && !dev("fire-404-before-auth")) return refuse(request, response, new Refusal(401, "X-Token: missing or not valid"));
      const type = String(request.headers["content-type"] ?? "");
      if (!/^application\/json\s*(;|$)/i.test(type)) return refuse(request, response, new Refusal(415, "Content-Type: expected application/json"));
      let body: unknown;
      try {
        body = JSON.parse(await readBody(request));
      } catch (error) {
        if (error instanceof Refusal) throw error;
        return refuse(request, response, new Refusal(400, "body: expected JSON"));
      }
      if (!authorized) {
        // fire-404-before-auth: the lookup runs first, so an unknown trigger or conversation answers 404 to anyone.
        try {
          locate(body);
        } catch (error) {
          if (error instanceof Refusal && error.status === 404) return refuse(request, response, error);
        }
        return refuse(request, response, new Refusal(401, "X-Token: missing or not valid"));
      }
      fire(body);
      if (dev("fire-204")) {
        response.writeHead(204);
        response.end();
        return;
      }
      return send(request, response, 200, undefined);
    }
    const exportPath = /^\/export\/conversations\/([^/]+)$/.exec(path);
    if (exportPath) {
      if (method !== "GET" && method !== "HEAD") {
        response.setHeader("allow", "GET, HEAD");
        return refuse(request, response, new Refusal(405, `${method}: only GET and HEAD are allowed here`));
      }
      if (!tokenValid) return refuse(request, response, new Refusal(401, "X-Token: missing or not valid"));
      const conversation = byId.get(decodeURIComponent(exportPath[1]!));
      if (conversation === undefined || dropped.has(conversation.id)) return refuse(request, response, new Refusal(404, "no such conversation"));
      return send(request, response, 200, exportOf(conversation));
    }
    return refuse(request, response, new Refusal(404, `no route ${path}`));
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) return response.destroy();
      if (error instanceof Refusal) return refuse(request, response, error);
      send(request, response, 500, { error: "internal error" });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const args = process.argv.slice(2);
  const deviations: string[] = [];
  let port = 8080;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--deviation") deviations.push(args[++i] ?? "");
    else if (args[i] === "--port") port = Number(args[++i]);
  }
  const running = await startHarbor({ deviations, port });
  process.stdout.write(`harbor on ${running.baseUrl} (token ${harborToken.slice(0, 3)}…, deviations: ${deviations.join(", ") || "none"})\n`);
}
