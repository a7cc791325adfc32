/**
 * Blind server "lantern": a second, independent server of the Bot Conversation Service written from the seed alone,
 * with readings of the open points that differ from harbor's wherever the seed allows. Deviation ids are those of
 * `lanternDeviations` in manifest.ts.
 *
 * Its readings (each one ours):
 * - pages count from 1; default page size 10; a page size above 50 is served and reported as 50;
 * - periods are half-open: from inclusive, to exclusive; a date-time without offset is UTC;
 * - filters combine with AND; an invalid search value (bad date, unknown status, non-numeric page) is ignored,
 *   as if the parameter were absent; `status` is matched in any letter case;
 * - a search without a valid token answers 401, as operations 2 and 3 do;
 * - items in id order (ascending);
 * - every date-time in UTC with milliseconds and `Z`;
 * - the inbound direction is spelled `Incoming`;
 * - the trigger list is wrapped: `{ "items": [descriptor, ...] }`;
 * - externalConversationId wins over conversationId; every conversation has one (`<session>|livechat` for the
 *   platform's, `ext-<id>` otherwise);
 * - a DateTime variable takes a date-time (extended or basic format), with or without offset; a date alone is refused;
 * - variables the trigger does not list are ignored; a File takes only `name` and `fileUrl`;
 * - error bodies are application/problem+json; no compression, no validators;
 * - the export is `GET /export/{id}`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The token lantern accepts. */
export const lanternToken = "Lantern-Secret-19";
/** Bots of lantern's data: note one id is a prefix of the other. */
export const lanternBots = ["lb-1", "lb-10"] as const;

type Value = null | boolean | number | string | Value[] | { [key: string]: Value };
type Body = { [key: string]: Value };

type Activity = Body;
interface Record_ {
  id: string;
  agentStageId: string;
  channelId: string;
  status: string;
  closingStatus: string | null;
  closingReason: string | null;
  started: Date;
  externalConversationId: string;
  session: string | null;
  history: Activity[];
  userId: string;
  userName: string | null;
}

/** A small deterministic generator (mulberry32), so lantern's data is the same on every start. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const statuses = ["Active", "Closed", "Operator"];
const closingStatuses = ["NotInitiated", "Initiated", "ClosingMessageSent", "DialogResetEventSent", "SessionClosed"];
const closingReasons = ["TimedOut", "ClosedByScenarioAction", "ClosedByOperator", "ConversationRestarted"];
const channelIds = ["platform", "directline", "messenger_b", "messenger_a"];

function makeData(): Record_[] {
  const random = generator(48);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const records: Record_[] = [];
  let clock = Date.parse("2026-05-10T00:00:00.000Z");
  for (let n = 1; n <= 37; n++) {
    clock += Math.floor(random() * 9 * 3600) * 1000 + 250;
    const id = `c${String(n).padStart(4, "0")}`;
    const channelId = pick(channelIds);
    const status = pick(statuses);
    const session = channelId === "platform" ? `S${Math.floor(random() * 1e6)}` : null;
    const history: Activity[] = [];
    let t = clock;
    const bot = { id: "lantern-bot", name: null, role: "Bot" };
    const user = { id: `u-${n}`, name: n % 4 === 0 ? null : `Person ${n}`, role: "User" };
    history.push({
      id: `${id}-a0`,
      type: "Event",
      timestamp: new Date(t).toISOString(),
      eventName: "trigger-fired",
      triggerType: "start-trigger",
      scenarioId: "sc-1",
    });
    const messageCount = 1 + Math.floor(random() * 6);
    for (let k = 0; k < messageCount; k++) {
      t += Math.floor(random() * 3600) * 1000 + 10;
      const outbound = random() < 0.5;
      history.push({
        id: `${id}-m${k}`,
        type: "Message",
        timestamp: new Date(t).toISOString(),
        text: outbound ? `Reply ${k} — ответ ${n}` : `Question ${k} from ${n}`,
        from: outbound ? bot : user,
        recipient: outbound ? user : bot,
        buttons: null,
        recognizedIntents: null,
        knowledgeBaseAnswers: outbound ? [{ id: "kb-1", question: "Hours?", answer: "9 to 5", score: "0.8" }] : null,
        attachments: k === 0 ? [{ contentType: "image/png", contentUrl: "https://files.example/p.png", content: null, name: "p.png", size: 10 }] : null,
      });
      if (random() < 0.2) history.push({ id: `${id}-e${k}`, type: "Event", timestamp: null, eventName: "custom-event", name: "tick" });
    }
    if (status === "Operator")
      history.push({ id: `${id}-op`, type: "Event", timestamp: new Date(t + 5).toISOString(), eventName: "TransferToOperatorInitiated" });
    records.push({
      id,
      agentStageId: n % 5 === 0 ? lanternBots[1] : lanternBots[0],
      channelId,
      status,
      closingStatus: status === "Active" ? null : pick(closingStatuses),
      closingReason: status === "Closed" ? pick(closingReasons) : null,
      started: new Date(clock),
      externalConversationId: session === null ? `ext-${id}` : `${session}|livechat`,
      session,
      history,
      userId: user.id,
      userName: user.name,
    });
  }
  return records;
}

const triggerCatalog: Record<string, Body[]> = {
  [lanternBots[0]]: [
    {
      externalEventId: "ev-profile",
      externalEventName: "Profile updated",
      parameters: {
        fullName: { name: "Full name", type: "PersonName" },
        vip: { name: "VIP", type: "Boolean" },
        profile: { name: "Profile", type: "ComplexObject" },
        city: { name: "City", type: "String" },
      },
    },
    {
      externalEventId: "ev-invoice",
      externalEventName: "Invoice issued",
      parameters: {
        total: { name: "Total", type: "Number" },
        dueOn: { name: "Due", type: "DateTime" },
        invoice: { name: "Invoice file", type: "File" },
      },
    },
  ],
  [lanternBots[1]]: [{ externalEventId: "ev-ten", externalEventName: "Ten", parameters: { label: { name: "Label", type: "String" } } }],
};

const extendedDateTime = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;
const basicDateTime = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(?:(\d{2})(\.\d+)?)?(Z|[+-]\d{2}(?:\d{2})?)?$/;

/** The instant of an ISO 8601 date-time; `flipOffsetSign` reads +hh as -hh. */
function instantOf(text: string, flipOffsetSign = false): number | undefined {
  const m = extendedDateTime.exec(text) ?? basicDateTime.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s = "00", frac = "", zone = "Z"] = m;
  const fields = [Number(mo), Number(d), Number(h), Number(mi), Number(s)] as const;
  if (fields[0] < 1 || fields[0] > 12 || fields[1] < 1 || fields[2] > 23 || fields[3] > 59 || fields[4] > 59) return undefined;
  const wall = Date.UTC(Number(y), fields[0] - 1, fields[1], fields[2], fields[3], fields[4]) + Math.round(Number(frac || "0") * 1000);
  if (new Date(wall).getUTCMonth() !== fields[0] - 1) return undefined;
  if (zone === "Z") return wall;
  const sign = (zone.startsWith("-") ? -1 : 1) * (flipOffsetSign ? -1 : 1);
  const digits = zone.slice(1).replace(":", "");
  return wall - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || "0")) * 60_000;
}

interface Outcome {
  status: number;
  body?: Value | string;
  type?: string;
}

function problem(status: number, title: string, detail: string, errors?: Value): Outcome {
  const body: Body = { type: "about:blank", title, status, detail };
  if (errors !== undefined) body["errors"] = errors;
  return { status, body, type: "application/problem+json" };
}

/** Starts lantern on 127.0.0.1 port 0 (or the given one). */
export async function startLantern(options: { deviations?: Iterable<string>; port?: number } = {}): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const deviations = new Set(options.deviations ?? []);
  const is = (id: string) => deviations.has(id);
  const data = makeData();
  const messagesOf = (r: Record_) => r.history.filter((a) => a.type === "Message");

  const summary = (r: Record_): Body => {
    const messages = messagesOf(r);
    const last = messages[messages.length - 1]!;
    const outbound = (last["from"] as Body)["role"] === "Bot";
    const startedShift = is("started-display-shifted") && r.channelId === "platform" ? 3600_000 : 0;
    const latest = last["timestamp"] as string;
    return {
      id: r.id,
      channelId: r.channelId,
      status: is("status-lower-closed") && r.status === "Closed" ? "closed" : r.status,
      messagesCount: messages.length,
      members: [
        { id: "lantern-bot", name: null, nickname: null, role: "Bot" },
        { id: is("member-id-number") ? Number(r.userId.slice(2)) : r.userId, name: r.userName, nickname: "nick", role: "User" },
      ],
      startedOn: new Date(r.started.getTime() + startedShift).toISOString(),
      channelData: channelDataOf(r, is("channel-data-string")),
      latestMessageOn: is("latest-on-unparseable") && r.channelId === "messenger_a" ? latest.slice(0, 16).replace(/-/g, "/").replace("T", " ") : latest,
      latestMessageDirection: outbound ? (is("latest-direction-bad") && r.status === "Operator" ? "OUTBOUND" : "Outbound") : "Incoming",
      latestMessageText: last["text"] as string,
      closingStatus: is("closing-status-bad") && r.closingStatus === "SessionClosed" ? "Closed" : r.closingStatus,
      closingReason: r.closingReason,
    };
  };
  const channelDataOf = (r: Record_, asString: boolean): Value => {
    if (r.session === null) return null;
    const value: Body = {
      platform: {
        session: { id: r.session, apps: { crm: { id: 7 } } },
        client: { app: null, externalId: null, userName: null },
        options: { prompterMode: false },
      },
      originalChannelId: "platform",
    };
    return asString ? JSON.stringify(value) : value;
  };
  const exported = (r: Record_): Body => {
    const members: Value[] = [
      { id: "lantern-bot", name: null, role: "Bot" },
      { id: r.userId, name: r.userName, role: "User" },
    ];
    const history = r.history.map((a) => {
      let copy: Body = { ...a };
      if (is("export-activity-type-lower") && copy["type"] === "Message") copy["type"] = "message";
      if (is("export-trigger-type-bad") && copy["eventName"] === "trigger-fired") copy = { ...copy, triggerType: "external-trigger" };
      return copy;
    });
    return {
      id: r.id,
      channelId: r.channelId,
      status: r.status,
      closingStatus: r.closingStatus,
      closingReason: r.closingReason,
      channelData: channelDataOf(r, false),
      members: is("export-members-disagree") ? members.slice(1) : members,
      history,
    };
  };

  const searchConversations = (query: URLSearchParams): Outcome => {
    const text = (name: string) => {
      const v = query.get(name);
      return v === null || v === "" ? undefined : v;
    };
    const when = (name: string, flip = false) => {
      const v = text(name);
      return v === undefined ? undefined : instantOf(v, flip);
    };
    const count = (name: string, min: number) => {
      const v = text(name);
      return v !== undefined && /^\d{1,9}$/.test(v) && Number(v) >= min ? Number(v) : undefined;
    };
    const agent = text("agentStageId");
    const channel = text("channelId");
    const statusText = text("status");
    const status = statuses.find((s) => s.toLowerCase() === statusText?.toLowerCase());
    const startFrom = when("startFromDate", is("start-date-offset-sign-flipped"));
    const startTo = when("startToDate", is("start-date-offset-sign-flipped"));
    let latestFrom = when("latestMessageFromDate");
    let latestTo = when("latestMessageToDate");
    if (is("latest-period-swapped")) [latestFrom, latestTo] = [latestTo, latestFrom];
    if (is("latest-from-only-with-start") && startFrom !== undefined) latestFrom = undefined;
    const askedSize = count("pageSize", 1);
    const pageSize = Math.min(askedSize ?? 10, 50);
    const page = count("pageIndex", 1) ?? 1;

    const tests: ((r: Record_) => boolean)[] = [];
    if (agent !== undefined) tests.push(is("agent-prefix") ? (r) => r.agentStageId.startsWith(agent) : (r) => r.agentStageId === agent);
    if (channel !== undefined && !(is("channel-filter-ignored-for-directline") && channel === "directline")) tests.push((r) => r.channelId === channel);
    if (status !== undefined && !(is("status-closed-ignored") && status === "Closed")) tests.push((r) => r.status === status);
    const lastAt = (r: Record_) => {
      const m = messagesOf(r);
      return Date.parse(m[m.length - 1]!["timestamp"] as string);
    };
    if (startFrom !== undefined) tests.push((r) => r.started.getTime() >= startFrom);
    if (startTo !== undefined) tests.push((r) => r.started.getTime() < startTo);
    if (latestFrom !== undefined) tests.push((r) => lastAt(r) >= latestFrom!);
    if (latestTo !== undefined) tests.push((r) => lastAt(r) < latestTo!);
    let found = data.filter((r) => tests.every((test) => test(r)));
    if (is("agent-and-status-drop-last") && agent !== undefined && status !== undefined) found = found.slice(0, -1);

    const total = found.length;
    const pages = Math.ceil(total / pageSize);
    let start = (page - 1) * pageSize;
    if (is("odd-page-size-skip") && pageSize % 2 === 1 && page > 1) start += 1;
    let slice = found.slice(start, start + pageSize);
    const isLast = page === pages;
    if (is("last-page-short-by-one") && isLast && slice.length > 1) slice = slice.slice(0, -1);
    const from = Math.min((page - 1) * pageSize, total);
    const to = from + (is("last-page-short-by-one") && isLast && slice.length > 0 ? slice.length + 1 : slice.length);
    const envelope: Body = {
      items: slice.map(summary),
      hasMore: is("has-more-false-first-page") && page === 1 ? false : page < pages,
      pageIndex: is("page-index-reported-zero-based") ? page - 1 : page,
      pageSize: is("default-page-size-not-reported") && askedSize === undefined ? null : pageSize,
      totalItemCount: is("total-count-page-only") ? slice.length : total,
      totalPageCount: is("total-page-count-floor") ? Math.floor(total / pageSize) : pages,
      fromItemInclusive: from,
      toItemExclusive: is("to-exclusive-inclusive") && to > from ? to - 1 : to,
    };
    return { status: 200, body: envelope, type: is("search-content-type-html") ? "text/html; charset=utf-8" : "application/json" };
  };

  const wrongValue = (type: string, value: Value): string | null => {
    const plainObject = typeof value === "object" && value !== null && !Array.isArray(value);
    if (type === "String") {
      if (typeof value !== "string") return "must be a string";
      return is("string-refuses-non-ascii") && /[^\x20-\x7e]/.test(value) ? "must be printable ASCII" : null;
    }
    if (type === "Number") return typeof value === "number" ? null : "must be a number";
    if (type === "Boolean")
      return typeof value === "boolean" || (is("boolean-accepts-string") && (value === "true" || value === "false")) ? null : "must be true or false";
    if (type === "DateTime")
      return is("datetime-accepts-garbage") || (typeof value === "string" && instantOf(value) !== undefined) ? null : "must be an ISO 8601 date-time";
    if (type === "ComplexObject") return plainObject || (is("complex-accepts-array") && Array.isArray(value)) ? null : "must be a JSON object";
    if (type === "PersonName")
      return (typeof value === "string" && value.trim().length > 0) || (is("persons-name-accepts-number") && typeof value === "number")
        ? null
        : "must be a full name";
    if (type === "File") {
      if (!plainObject) return "must be an object with name and fileUrl";
      const keys = Object.keys(value);
      if (keys.some((k) => k !== "name" && k !== "fileUrl")) return "takes only name and fileUrl";
      const name = value["name"];
      const link = value["fileUrl"];
      if (typeof name !== "string" || !/^.+\.[A-Za-z0-9]+$/.test(name)) return "name must be a file name with an extension";
      if (typeof link !== "string" || !/^https?:\/\/[^\s]+$/i.test(link)) return "fileUrl must be an http(s) link";
      return null;
    }
    return `has a type lantern does not know (${type})`;
  };

  const fireEvent = (raw: string): Outcome => {
    let parsed: Value;
    try {
      parsed = JSON.parse(raw) as Value;
    } catch {
      return problem(400, "Bad Request", "the body is not JSON");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return problem(400, "Bad Request", "the body must be a JSON object");
    for (const key of ["conversationId", "externalConversationId", "externalEventId"]) {
      if (key in parsed && typeof parsed[key] !== "string") return problem(400, "Bad Request", `${key} must be a string`);
    }
    const eventId = parsed["externalEventId"] as string | undefined;
    const external = parsed["externalConversationId"] as string | undefined;
    const internal = parsed["conversationId"] as string | undefined;
    let record: Record_ | undefined;
    if (external !== undefined && !is("fire-external-id-ignored")) record = data.find((r) => r.externalConversationId === external);
    else if (internal !== undefined) record = data.find((r) => r.id === internal);
    if (record === undefined) return problem(404, "Not Found", "no conversation with that identifier");
    if (eventId === undefined && is("fire-missing-event-id-200")) return { status: 200 };
    const trigger = (triggerCatalog[record.agentStageId] ?? []).find((t) => t["externalEventId"] === eventId);
    if (trigger === undefined) return is("fire-unknown-trigger-200") ? { status: 200 } : problem(404, "Not Found", "no trigger with that externalEventId");
    const payload = parsed["externalEventPayload"];
    const errors: Value[] = [];
    if (payload !== undefined) {
      if (typeof payload !== "object" || payload === null || Array.isArray(payload))
        errors.push({ variable: "externalEventPayload", error: "must be an object" });
      else {
        const parameters = trigger["parameters"] as Record<string, Body>;
        for (const [code, value] of Object.entries(payload)) {
          const parameter = Object.hasOwn(parameters, code) ? parameters[code] : undefined;
          if (parameter === undefined) continue;
          const wrong = wrongValue(parameter["type"] as string, value);
          if (wrong !== null) errors.push({ variable: code, error: `${code} ${wrong}` });
        }
      }
    }
    if (errors.length > 0)
      return is("validation-500-empty-body") ? { status: 500 } : problem(500, "Validation failed", "variable values failed validation", errors);
    return is("fire-body-json") ? { status: 200, body: { status: "sent" }, type: "application/json" } : { status: 200 };
  };

  const authorized = (request: IncomingMessage, relaxed = false) => {
    const token = request.headers["x-token"];
    if (typeof token !== "string") return false;
    return token === lanternToken || (relaxed && token.toLowerCase() === lanternToken.toLowerCase());
  };

  const route = async (request: IncomingMessage): Promise<Outcome> => {
    const url = new URL(request.url ?? "/", "http://lantern");
    const method = request.method ?? "GET";
    const parts = url.pathname.split("/").filter((p) => p !== "");
    const joined = parts.join("/");
    if (joined === "api/v2/channels/conversations") {
      if (method !== "GET" && method !== "HEAD" && !(is("search-post-200") && method === "POST"))
        return { ...problem(405, "Method Not Allowed", `${method} is not served here`), allow: "GET, HEAD" } as Outcome;
      if (!authorized(request) && !(is("search-wrong-token-ok") && request.headers["x-token"] !== undefined))
        return problem(401, "Unauthorized", "check the X-Token header");
      return searchConversations(url.searchParams);
    }
    if (parts.length === 7 && joined.startsWith("api/v1/runtime/simple/external/events/")) {
      if (method !== "GET" && method !== "HEAD")
        return { ...problem(405, "Method Not Allowed", `${method} is not served here`), allow: "GET, HEAD" } as Outcome;
      if (!authorized(request) && !(is("triggers-no-token-ok") && request.headers["x-token"] === undefined))
        return problem(401, "Unauthorized", "check the X-Token header");
      const bot = decodeURIComponent(parts[6]!);
      const list = Object.hasOwn(triggerCatalog, bot) ? triggerCatalog[bot] : undefined;
      if (list === undefined)
        return is("triggers-404-as-500")
          ? problem(500, "Internal Server Error", "bot lookup failed")
          : problem(404, "Not Found", "no bot with that agentStageId");
      const items: Value[] = list.map((t) => (is("trigger-name-missing") ? { externalEventId: t["externalEventId"]!, parameters: t["parameters"]! } : t));
      return { status: 200, body: { items }, type: "application/json" };
    }
    if (joined === "api/v1/runtime/simple/external/events") {
      if (method !== "POST") return { ...problem(405, "Method Not Allowed", `${method} is not served here`), allow: "POST" } as Outcome;
      const chunks: Buffer[] = [];
      for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
      if (request.headers["x-token"] === undefined && is("fire-no-token-500")) return problem(500, "Internal Server Error", "token lookup failed");
      if (!authorized(request, is("fire-token-case-insensitive-value"))) return problem(401, "Unauthorized", "check the X-Token header");
      return fireEvent(Buffer.concat(chunks).toString("utf8"));
    }
    if (parts.length === 2 && parts[0] === "export") {
      if (method !== "GET" && method !== "HEAD")
        return { ...problem(405, "Method Not Allowed", `${method} is not served here`), allow: "GET, HEAD" } as Outcome;
      if (!authorized(request)) return problem(401, "Unauthorized", "check the X-Token header");
      const record = data.find((r) => r.id === decodeURIComponent(parts[1]!));
      return record === undefined ? problem(404, "Not Found", "no such conversation") : { status: 200, body: exported(record), type: "application/json" };
    }
    return problem(404, "Not Found", "no such route");
  };

  const reply = (response: ServerResponse, outcome: Outcome & { allow?: string }) => {
    const headers: Record<string, string> = {};
    if (outcome.allow !== undefined) headers["allow"] = outcome.allow;
    if (outcome.body === undefined) {
      headers["content-length"] = "0";
      response.writeHead(outcome.status, headers).end();
      return;
    }
    const text = typeof outcome.body === "string" && outcome.type !== "application/json" ? outcome.body : JSON.stringify(outcome.body);
    headers["content-type"] = outcome.type ?? "application/json";
    headers["content-length"] = String(Buffer.byteLength(text));
    response.writeHead(outcome.status, headers).end(text);
  };

  const server = createServer((request, response) => {
    route(request).then(
      (outcome) => reply(response, outcome),
      () => reply(response, problem(500, "Internal Server Error", "lantern failed on this request")),
    );
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", () => resolve()));
  const address = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
