/**
 * One planted fault for each probe family of the catalog (each declared beside its check, `src/checks/`):
 * a server deviating in one way its family is built to find. The record is keyed by the catalog's
 * family names, so a family added to the catalog without a fault here is a compile error.
 */
import type { FamilyName } from "../../src/checks/index.ts";
import type { CheckName, ConformanceOptions } from "../../src/index.ts";
import { editJson, type Fault, type ProxiedResponse } from "./faulty-proxy.ts";
import { fixtureBot, sandboxExportPath } from "./sandbox.ts";

export const searchPath = "/api/v2/channels/conversations";
export const firePath = "/api/v1/runtime/simple/external/events";
export const isSearch = (url: URL): boolean => url.pathname === searchPath;
export const isFire = (url: URL): boolean => url.pathname === firePath;
export const isTriggerList = (url: URL): boolean => url.pathname.startsWith(`${firePath}/`);
export const fired = (): ProxiedResponse => ({ status: 200, headers: {}, body: "" });
export const jsonAnswer = (status: number, body: unknown): ProxiedResponse => ({
  status,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});
export const requestOf = (body: string): Record<string, unknown> => JSON.parse(body || "{}") as Record<string, unknown>;
export const payloadOf = (body: string): unknown => requestOf(body)["externalEventPayload"];

/**
 * A faithful reading of an open point: a search the sandbox refuses (a value the description rules out) is
 * answered as if the parameter it cannot read were not sent; the seed shows no search status but success.
 */
export const ignoringInvalidSearchValues: Fault = {
  request: async (url, _headers, upstream) => {
    if (!isSearch(url)) return undefined;
    const answer = await upstream(url);
    if (answer.status !== 400) return answer;
    for (const name of [...new Set(url.searchParams.keys())]) {
      const without = new URL(url);
      without.searchParams.delete(name);
      const retried = await upstream(without);
      if (retried.status === 200) return retried;
    }
    return answer;
  },
};

/** The parameters of a search that page it or name the bot: every other one is a filter. */
const pagingAndBot = ["agentStageId", "pageSize", "pageIndex"];

/** The filters a search sends (its parameters but paging and the bot). */
export const filtersOf = (url: URL): string[] => [...new Set(url.searchParams.keys())].filter((name) => !pagingAndBot.includes(name));

/**
 * A server whose engine finds other conversations than the sandbox's for some searches, and pages and counts what
 * it finds consistently: `edit` changes the whole result of a search `when` says (read from the sandbox in one
 * page), and every page of it is cut from the edited result, its envelope computed from it (pages from 0). A fault
 * of the engine, not of the envelope: only an oracle of what the data holds sees it.
 */
export const engineFault = (when: (url: URL) => boolean, edit: (items: Record<string, unknown>[]) => Record<string, unknown>[], miscount = 0): Fault => ({
  request: async (url, _headers, upstream, _body, method) => {
    // A HEAD has no page to cut: the server's own answer.
    if (!isSearch(url) || method !== "GET" || !when(url)) return undefined;
    const whole = new URL(url);
    whole.searchParams.set("pageSize", "1000");
    whole.searchParams.set("pageIndex", "0");
    const all = await upstream(whole);
    const asked = await upstream(url);
    if (all.status !== 200 || asked.status !== 200) return asked;
    const items = edit((JSON.parse(all.body) as { items: Record<string, unknown>[] }).items);
    const page = JSON.parse(asked.body) as { pageSize: number; pageIndex: number };
    const total = items.length + miscount;
    const from = Math.min(page.pageIndex * page.pageSize, items.length);
    const shown = items.slice(from, from + page.pageSize);
    return jsonAnswer(200, {
      ...page,
      items: shown,
      totalItemCount: total,
      totalPageCount: Math.ceil(total / page.pageSize),
      fromItemInclusive: from,
      toItemExclusive: from + shown.length,
      hasMore: (page.pageIndex + 1) * page.pageSize < total,
    });
  },
});

/** Rewrites every item of a 200 search page. */
export const editItems = (edit: (item: Record<string, unknown>) => void): Fault => ({
  response: (url, response) => {
    if (isSearch(url) && response.status === 200) {
      editJson(response, (page) => {
        for (const item of (page as { items: Record<string, unknown>[] }).items) edit(item);
        return page;
      });
    }
  },
});

/** A fire whose payload has this variable with a value `accepts` lets through is answered 200, as a lax server would (the event "fires"). */
export const laxVariable = (code: string, accepts: (value: unknown) => boolean): Fault => ({
  request: (url, _headers, _upstream, body) => {
    if (!isFire(url)) return undefined;
    const payload = payloadOf(body) as Record<string, unknown> | undefined;
    return payload && typeof payload === "object" && code in payload && accepts(payload[code]) ? fired() : undefined;
  },
});

/** Every member's name written in upper case in search results (the export keeps the conversation's own): a search that disagrees with the conversation. */
export const shoutedMemberNames: Fault = editItems((item) => {
  for (const member of (item["members"] as { name?: unknown }[] | undefined) ?? [])
    if (typeof member.name === "string") member.name = member.name.toUpperCase();
});

/** A trigger the list still names that no longer fires: 404 for any fire of `trigger` whose values are all right. */
export const staleTrigger = (trigger: string, right: (payload: Record<string, unknown>) => boolean): Fault => ({
  request: (url, _headers, _upstream, body) => {
    const request = requestOf(body);
    const payload = request["externalEventPayload"];
    return isFire(url) && request["externalEventId"] === trigger && typeof payload === "object" && payload !== null && right(payload as Record<string, unknown>)
      ? jsonAnswer(404, { message: `no trigger ${trigger}` })
      : undefined;
  },
});

/** Once a fire was taken, search results show another conversation (`other`) with a new last message text: a fire that changes what it does not name. Made per run. */
export const fireTouchingAnother =
  (other: string): (() => Fault) =>
  () => {
    let fired = false;
    return {
      request: async (url, _headers, upstream, _body, method) => {
        if (!isFire(url) || method !== "POST") return undefined;
        const answer = await upstream(url);
        if (answer.status === 200) fired = true;
        return answer;
      },
      response: (url, response) => {
        if (fired && isSearch(url) && response.status === 200)
          editJson(response, (page) => {
            for (const item of (page as { items: Record<string, unknown>[] }).items)
              if (item["id"] === other) item["latestMessageText"] = `${String(item["latestMessageText"])} (read)`;
            return page;
          });
      },
    };
  };

/** Searches answered while another is in flight get the body of the search answered before (one response buffer shared by every request). Made per run. */
export const crossedAnswersInFlight = (): Fault => {
  let inFlight = 0;
  let previous: ProxiedResponse | undefined;
  return {
    request: async (url, _headers, upstream, _body, method) => {
      if (!isSearch(url) || method !== "GET") return undefined;
      inFlight += 1;
      try {
        const answer = await upstream(url);
        const crossed = inFlight > 1 && previous && previous.status === answer.status ? { ...answer, body: previous.body } : answer;
        previous = answer;
        return crossed;
      } finally {
        inFlight -= 1;
      }
    },
  };
};

/** A fire body sent chunked read as empty (a server that reads a body by its Content-Length only): 400, no JSON. */
export const chunkedBodyUnread: Fault = {
  request: (url, headers) =>
    isFire(url) && headers.get("transfer-encoding") === "chunked" ? jsonAnswer(400, { message: "the request body is not valid JSON" }) : undefined,
};

/** A fire body with a line break or a tab in it refused (a parser that takes only JSON written on one line): 400. */
export const oneLineJsonOnly: Fault = {
  request: (url, _headers, _upstream, body) =>
    isFire(url) && /[\n\t]/.test(body) ? jsonAnswer(400, { message: "the request body is not valid JSON" }) : undefined,
};

/** The options of a run that fires (the faults of the fire operation). */
export const firing: Partial<ConformanceOptions> = { allowFire: true };

/** A planted fault: the fault, the check meant to catch it, the checks that may rightly catch it too, and the run's options. */
export interface PlantedFault {
  readonly name: string;
  readonly check: CheckName;
  readonly related?: readonly CheckName[];
  readonly fault: Fault | (() => Fault);
  readonly options?: Partial<ConformanceOptions>;
}

const triggerIds = ["order-status-changed", "callback-requested"];
/** The known identifier `id` stands one step from, if any (`near(id, known)`: cut, or with characters more). */
const nearOf = (id: unknown, known: readonly string[]): string | undefined =>
  typeof id === "string" ? known.find((each) => id !== each && id.length >= each.length - 1 && (id.startsWith(each) || each.startsWith(id))) : undefined;

/** A fault per family, keyed by the catalog's family names. */
export const familyFaults: Readonly<Record<FamilyName, PlantedFault>> = {
  "credential-near-misses": {
    name: "the token compared by its first characters (a token cut by one character accepted)",
    check: "ignored_auth",
    fault: { request: (_url, headers) => void (headers.get("x-token") === "sandbox-toke" && headers.set("x-token", "sandbox-token")) },
  },
  "credential-channels": {
    name: "Authorization: Bearer accepted in place of X-Token",
    check: "ignored_auth",
    fault: {
      request: (_url, headers) =>
        void (!headers.has("x-token") && headers.get("authorization")?.startsWith("Bearer ") && headers.set("x-token", headers.get("authorization")!.slice(7))),
    },
  },
  "credential-before-lookup": {
    name: "an unknown bot looked up before the token is checked (404 for a wrong token)",
    check: "ignored_auth",
    fault: { request: (url) => (isTriggerList(url) && !url.pathname.endsWith(fixtureBot) ? jsonAnswer(404, { message: "no such bot" }) : undefined) },
  },
  "bot-id-near-misses": {
    name: "the trigger list matching a bot id by prefix",
    check: "unknown_bot_not_found",
    fault: {
      request: (url) => {
        const segment = decodeURIComponent(url.pathname.split("/").at(-1) ?? "");
        if (isTriggerList(url) && nearOf(segment.replace(/[;,/].*$/, ""), [fixtureBot])) url.pathname = `${firePath}/${fixtureBot}`;
        return undefined;
      },
    },
  },
  "bot-filter-near-misses": {
    name: "the search's agentStageId matched as a prefix of the bot",
    check: "bot_filter_match",
    fault: {
      request: (url) => void (isSearch(url) && nearOf(url.searchParams.get("agentStageId"), [fixtureBot]) && url.searchParams.set("agentStageId", fixtureBot)),
    },
  },
  "identifier-encodings": {
    name: "a bot id with a percent-encoded character not decoded (404)",
    check: "identifier_encoding",
    fault: { request: (url) => (isTriggerList(url) && /%3\d/.test(url.pathname) ? jsonAnswer(404, { message: "no such bot" }) : undefined) },
  },
  "trigger-id-near-misses": {
    name: "an externalEventId matched by prefix",
    check: "unknown_trigger_not_found",
    fault: {
      request: (url, _headers, upstream, body) => {
        const request = requestOf(body);
        const known = nearOf(request["externalEventId"], triggerIds);
        return isFire(url) && known ? upstream(url, JSON.stringify({ ...request, externalEventId: known })) : undefined;
      },
    },
    options: firing,
  },
  "conversation-id-near-misses": {
    name: "a conversationId matched by prefix",
    check: "unknown_conversation_not_found",
    fault: {
      request: (url, _headers, upstream, body) => {
        const request = requestOf(body);
        const known = nearOf(request["conversationId"], ["conversation-001"]);
        return isFire(url) && known ? upstream(url, JSON.stringify({ ...request, conversationId: known })) : undefined;
      },
    },
    options: firing,
  },
  "variable-near-misses": {
    name: "a Number taking true and numeric strings",
    check: "payload_validation_rejection",
    fault: laxVariable("orderTotal", (value) => typeof value === "boolean" || (typeof value === "string" && Number.isFinite(Number(value)))),
    options: firing,
  },
  "external-identifier": {
    name: "a platform conversation's <SESSION_ID>|livechat not looked up (404)",
    check: "payload_validation_rejection",
    fault: {
      request: (url, _headers, _upstream, body) =>
        isFire(url) && String(requestOf(body)["externalConversationId"] ?? "").endsWith("|livechat")
          ? jsonAnswer(404, { message: "no conversation" })
          : undefined,
    },
    options: firing,
  },
  "variable-later-position": {
    name: "only the first variable of a payload validated",
    check: "payload_validation_rejection",
    fault: {
      request: (url, _headers, _upstream, body) => {
        const payload = payloadOf(body);
        return isFire(url) && typeof payload === "object" && payload !== null && Object.keys(payload).length > 1 ? fired() : undefined;
      },
    },
    options: firing,
  },
  "variable-right-values": {
    name: "a DateTime in UTC (Z) refused",
    check: "payload_acceptance",
    fault: {
      request: (url, _headers, _upstream, body) => {
        const value = (payloadOf(body) as Record<string, unknown> | undefined)?.["deliveryDate"];
        return isFire(url) && typeof value === "string" && value.endsWith("Z") ? jsonAnswer(500, { message: "deliveryDate: bad date" }) : undefined;
      },
    },
    options: firing,
  },
  "payload-optional": {
    name: "a fire without a payload refused once the trigger and conversation are found",
    check: "payload_optional",
    fault: {
      request: async (url, _headers, upstream, body) => {
        if (!isFire(url) || payloadOf(body) !== undefined) return undefined;
        const answer = await upstream(url);
        return answer.status === 200 ? jsonAnswer(500, { message: "externalEventPayload is required" }) : answer;
      },
    },
    options: firing,
  },
  "payload-shapes": {
    name: "a payload that is an array or a string accepted",
    check: "payload_shape_rejection",
    fault: {
      request: (url, headers, _upstream, body) =>
        isFire(url) && headers.get("x-token") === "sandbox-token" && (["string", "number"].includes(typeof payloadOf(body)) || Array.isArray(payloadOf(body)))
          ? fired()
          : undefined,
    },
    options: firing,
  },
  "request-invalid-values": {
    // A search with a value the description rules out, ignored, is a finding (the seed shows no search status but success).
    name: "a fire body with an empty identifier fired",
    check: "negative_data_rejection",
    fault: {
      // The token checked first, as every server does: only the body's check is lax.
      request: (url, headers, _upstream, body) => {
        const request = requestOf(body);
        return isFire(url) &&
          headers.get("x-token") === "sandbox-token" &&
          (request["conversationId"] === "" || request["externalEventId"] === "" || request["externalConversationId"] === "")
          ? fired()
          : undefined;
      },
    },
    options: firing,
  },
  "request-valid-values": {
    name: "a search with a page size of 1 refused",
    check: "positive_data_acceptance",
    fault: {
      request: (url) =>
        isSearch(url) && url.searchParams.get("pageSize") === "1" && !url.searchParams.has("pageIndex") ? jsonAnswer(400, { message: "pageSize" }) : undefined,
    },
  },
  "envelope-math": {
    name: "totalPageCount one too many",
    check: "envelope_math",
    related: ["search_model", "paging_walk"],
    fault: {
      response: (url, response) =>
        void (
          isSearch(url) &&
          response.status === 200 &&
          editJson(response, (page) => ({ ...(page as object), totalPageCount: (page as { totalPageCount: number }).totalPageCount + 1 }))
        ),
    },
  },
  "paging-walk": {
    name: "a later page of the bot's walk repeating the first page's first item",
    check: "paging_walk",
    fault: {
      request: async (url, _headers, upstream, _body, method) => {
        const filtered = [...url.searchParams.keys()].some((name) => !["agentStageId", "pageSize", "pageIndex"].includes(name));
        if (!isSearch(url) || method !== "GET" || filtered || Number(url.searchParams.get("pageIndex") ?? 0) === 0) return undefined;
        const answer = await upstream(url);
        const first = new URL(url);
        first.searchParams.set("pageIndex", "0");
        const firstItem = (JSON.parse((await upstream(first)).body) as { items: unknown[] }).items[0];
        if (answer.status === 200 && firstItem)
          editJson(answer, (page) => {
            const items = (page as { items: unknown[] }).items;
            return items.length > 0 ? { ...(page as object), items: [firstItem, ...items.slice(1)] } : page;
          });
        return answer;
      },
    },
  },
  "filter-match": {
    name: "a channel matched by prefix",
    check: "filter_match",
    fault: {
      request: (url) => {
        const asked = url.searchParams.get("channelId");
        const widened = asked ? ["directline", "platform", "messenger_a", "messenger_b"].find((channel) => channel.startsWith(asked)) : undefined;
        if (isSearch(url) && widened) url.searchParams.set("channelId", widened);
        return undefined;
      },
    },
  },
  "filter-inclusion": {
    name: "a period with both bounds of the start date finding nothing",
    check: "filter_inclusion",
    related: ["search_model"],
    fault: {
      request: (url) => {
        const bounds = [url.searchParams.get("startFromDate"), url.searchParams.get("startToDate")];
        if (isSearch(url) && bounds.every((bound) => bound !== null && !Number.isNaN(Date.parse(bound))))
          url.searchParams.set("startFromDate", "2100-01-01T00:00:00Z");
        return undefined;
      },
    },
  },
  relations: {
    // A place the kit's code never names: how a query's percent-encoded letters are read.
    name: "a query value with a percent-encoded letter read as written (refused as an unknown value)",
    check: "metamorphic_relations",
    related: ["identifier_encoding", "bot_filter_match"],
    fault: {
      request: (url, headers) =>
        isSearch(url) && headers.get("x-token") === "sandbox-token" && /%(3\d|4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A]|2D|2E|5F|7E)/i.test(url.search)
          ? jsonAnswer(400, { message: "unknown value" })
          : undefined,
    },
  },
  "search-model": {
    // A place the kit's code never names: a status together with a period of the last message.
    name: "the oldest conversation left out of searches that send a status and a period of the last message",
    check: "search_model",
    related: ["filter_combination", "filter_inclusion"],
    fault: engineFault(
      (url) => url.searchParams.has("status") && filtersOf(url).some((name) => name.startsWith("latestMessage")),
      (items) => items.slice(0, -1),
    ),
  },
  "filter-combination": {
    name: "channelId dropped when status is sent too",
    check: "filter_combination",
    related: ["search_model", "filter_match"],
    fault: { request: (url) => void (isSearch(url) && url.searchParams.has("status") && url.searchParams.delete("channelId")) },
  },
  "empty-search": {
    name: "a search that matches nothing answered 404",
    check: "empty_search_page",
    fault: {
      response: (url, response) =>
        void (
          isSearch(url) &&
          response.status === 200 &&
          response.body !== "" &&
          (JSON.parse(response.body) as { totalItemCount: number }).totalItemCount === 0 &&
          Object.assign(response, jsonAnswer(404, { message: "no conversations" }))
        ),
    },
  },
  "response-schema": {
    name: "messagesCount written as a string",
    check: "response_schema_conformance",
    fault: editItems((item) => void (item["messagesCount"] = String(item["messagesCount"]))),
  },
  "spelled-values": {
    name: "a member's role spelled in lower case",
    check: "response_schema_conformance",
    fault: editItems((item) => {
      for (const member of item["members"] as { role: string }[]) member.role = member.role.toLowerCase();
    }),
  },
  "response-bytes": {
    name: "search bodies in Latin-1 bytes",
    check: "body_encoding",
    fault: {
      response: (url, response) => {
        if (!isSearch(url) || response.status !== 200) return;
        editJson(response, (page) => ({
          ...(page as object),
          items: (page as { items: Record<string, unknown>[] }).items.map((item) => ({
            ...item,
            latestMessageText: `${String(item["latestMessageText"])} café`,
          })),
        }));
        response.bytes = new Uint8Array(Buffer.from(response.body, "latin1"));
      },
    },
  },
  "response-media-type": {
    name: "search pages sent as text/plain",
    check: "content_type_conformance",
    fault: { response: (url, response) => void (isSearch(url) && response.status === 200 && (response.headers["content-type"] = "text/plain; charset=utf-8")) },
  },
  "documented-statuses": {
    name: "the trigger list of an unknown bot answered 502",
    check: "not_a_server_error",
    related: ["unknown_bot_not_found", "ignored_auth"],
    fault: {
      response: (url, response) => void (isTriggerList(url) && response.status === 404 && Object.assign(response, jsonAnswer(502, { message: "upstream" }))),
    },
  },
  "operation-consistency": {
    name: "search results writing every member's name in upper case, the export keeping the conversation's own",
    check: "operation_consistency",
    fault: shoutedMemberNames,
    options: { exportPath: sandboxExportPath },
  },
  "fire-success": {
    name: "a fire answered 200 with a body",
    check: "payload_acceptance",
    related: ["payload_optional", "content_type_conformance", "identifier_encoding"],
    fault: {
      response: (url, response) => void (isFire(url) && response.status === 200 && Object.assign(response, jsonAnswer(200, { sent: true }))),
    },
    options: firing,
  },
};
