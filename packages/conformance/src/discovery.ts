import { parseDateTime } from "@bot-conversation/client";
import { decisionOfFinding } from "@bot-conversation/openapi";
import type { ConversationSummary } from "@bot-conversation/types";
import { caseFor, type Exchange, mediaTypeOf } from "./case.ts";
import { hasOffset } from "./checks/filters.ts";
import { pageOf } from "./checks/paging.ts";
import { statedServerError } from "./checks/response.ts";
import { operationOf } from "./description.ts";
import {
  type AddFinding,
  discoverDateFilterForms,
  discoverDateRangeEnd,
  discoverHeadAndOptions,
  discoverMaximumPageSize,
  discoverUnlistedParameters,
} from "./discovery-probes.ts";
import type { LetterCaseAnswers } from "./phases/identifiers.ts";
import type { Session } from "./session.ts";
import { readTriggerList } from "./trigger-list.ts";

/** What a run learnt about a point the service leaves open; a finding, never a failure. */
export interface Finding {
  /** Stable name of the open point, e.g. `page_index_base`. */
  readonly name: string;
  /** The open point it answers: its label in `decisions.yaml` of `@bot-conversation/openapi` (a row of the README's Decisions table). */
  readonly point: string;
  /** What the server showed, in a sentence. */
  readonly observed: string;
  /** The observation as data (a number, a word, a list), for scripts and tests; null when nothing was seen. */
  readonly value: unknown;
  /** What the description decides today: the point's decision in `decisions.yaml`. */
  readonly decided: string;
  /** With `--baseline`: whether the baseline accepted this very value (false: new or changed since). */
  readonly accepted?: boolean;
}

/** What the run saw of the trigger list and the fire identifiers, gathered by the phases. */
export interface DiscoveryInput {
  /** The 200 answer to the trigger list of `--agent-stage-id`. */
  readonly triggerList: Exchange | undefined;
  /** Statuses of the fire requests that named the conversation by one identifier and an unknown one by the other. */
  readonly precedence: { byConversationId?: number; byExternalConversationId?: number } | undefined;
  /** Status of a search naming an unknown bot. */
  readonly unknownBotSearch?: number | undefined;
  /** Status of a fire naming an unlisted variable (with --allow-fire). */
  readonly unlistedVariable?: number | undefined;
  /** The value sent and the status of a fire with each open form of a `DateTime` variable (with --allow-fire), by form. */
  readonly dateTimeVariableForms?: Readonly<Record<string, { readonly value: unknown; readonly status: number }>> | undefined;
  /** What the known bot's id in another letter case got. */
  readonly letterCase?: LetterCaseAnswers | undefined;
}

type Summary = ConversationSummary;

const orders: ReadonlyArray<readonly [string, (left: Summary, right: Summary) => number]> = [
  ["startedOn descending", (left, right) => parseDateTime(right.startedOn) - parseDateTime(left.startedOn)],
  ["startedOn ascending", (left, right) => parseDateTime(left.startedOn) - parseDateTime(right.startedOn)],
  ["latestMessageOn descending", (left, right) => parseDateTime(right.latestMessageOn) - parseDateTime(left.latestMessageOn)],
  ["latestMessageOn ascending", (left, right) => parseDateTime(left.latestMessageOn) - parseDateTime(right.latestMessageOn)],
  ["id ascending", (left, right) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0)],
];

/** Asks and reads what the server does where the service says "not shown"; adds at most five requests. */
export async function discover(session: Session, input: DiscoveryInput): Promise<Finding[]> {
  const findings: Finding[] = [];
  // Joined by the finding's name: the entry of decisions.yaml that lists it gives the point and the decision.
  const add: AddFinding = (name, observed, value) => {
    const { label, decision } = decisionOfFinding(name);
    findings.push({ name, point: label, observed, value, decided: decision ?? "No row in the Decisions table: the description says nothing about it." });
  };
  const pages = session.knowledge.pages.flatMap((exchange) => {
    const page = pageOf(exchange);
    return page ? [{ exchange, page }] : [];
  });
  const plain = pages.find(({ exchange }) => exchange.case.query["pageSize"] === undefined && exchange.case.query["pageIndex"] === undefined);

  if (plain) {
    add("default_page_size", `A search without pageSize reports pageSize ${plain.page.pageSize}.`, plain.page.pageSize);
    add("page_index_base", `The first page (no pageIndex sent) is pageIndex ${plain.page.pageIndex}.`, plain.page.pageIndex);
  }

  const sample = pages
    .filter(({ exchange }) => Object.keys(exchange.case.query).every((name) => ["agentStageId", "pageSize"].includes(name)))
    .map(({ page }) => page.items)
    .sort((left, right) => right.length - left.length)[0];
  if (sample && sample.length > 2) {
    const holding = orders.filter(([, compare]) => sample.every((item, index) => index === 0 || compare(sample[index - 1]!, item) <= 0)).map(([name]) => name);
    add(
      "item_order",
      holding.length > 0 ? `The items of a page are in ${holding.join(", ")} order.` : "The items follow none of startedOn, latestMessageOn or id order.",
      holding,
    );
  }

  await discoverStatusCase(session, add);
  await discoverMaximumPageSize(session, add);
  await discoverDateRangeEnd(session, add, plain?.page.items[0]);
  await discoverUnlistedParameters(session, add);
  await discoverDateFilterForms(session, add, plain?.page.items[0]);
  await discoverHeadAndOptions(session, add);

  if (input.unknownBotSearch !== undefined) {
    const empty = input.unknownBotSearch === 200;
    add(
      "unknown_bot_search",
      empty
        ? "A search for an unknown agentStageId is 200 with no conversation."
        : `A search for an unknown agentStageId is refused with ${input.unknownBotSearch}.`,
      empty ? "empty page" : input.unknownBotSearch,
    );
  }
  const undocumented = session.knowledge.log.filter((entry) => /^(GET|PUT|PATCH|DELETE) \//.test(entry.operationId) && entry.status > 0);
  if (undocumented.length > 0) {
    const answers = Object.fromEntries(undocumented.map((entry) => [entry.operationId, entry.status]));
    add(
      "undocumented_methods",
      `Methods the description does not list on a path: ${Object.entries(answers)
        .map(([request, status]) => `${request} ${status}`)
        .join(", ")}.`,
      answers,
    );
  }
  const stated = session.knowledge.log.filter((entry) => statedServerError(session.description, entry.operationId, entry.status));
  if (stated.length > 0) {
    const counts: Record<string, number> = {};
    for (const entry of stated) counts[`${entry.operationId} ${entry.status}`] = (counts[`${entry.operationId} ${entry.status}`] ?? 0) + 1;
    add(
      "documented_server_errors",
      `The server answered a 5xx the service documents: ${Object.entries(counts)
        .map(([answer, count]) => `${answer} ${count} times`)
        .join(", ")}.`,
      counts,
    );
  }
  const differed = [...session.relationCounts.values()].filter((count) => count.differed > 0);
  if (session.relationCounts.size > 0) {
    add(
      "relation_differences",
      differed.length === 0
        ? "Every relation HTTP leaves open was answered alike (HEAD as GET, a percent-encoded path, Accept with JSON among others)."
        : `Answered another way, as HTTP allows: ${differed.map((count) => `${count.name} ${count.differed} of ${count.transformed} (${count.differences.join("; ")})`).join(", ")}.`,
      Object.fromEntries(differed.map((count) => [count.name, count.differences])),
    );
  }
  const invalid = session.knowledge.invalidSearches;
  if (invalid.length > 0) {
    const refused = [...new Set(invalid.filter(({ status }) => status >= 400 && status < 500).map(({ parameter }) => parameter))].sort();
    const answered = [...new Set(invalid.filter(({ status }) => status >= 200 && status < 300).map(({ parameter }) => parameter))].sort();
    const statuses = [...new Set(invalid.map(({ status }) => status))].sort((left, right) => left - right);
    add(
      "invalid_search_values",
      `Of ${invalid.length} searches with one value the description rules out (statuses ${statuses.join(", ")}), ${refused.length > 0 ? `those on ${refused.join(", ")} were refused` : "none was refused"}${answered.length > 0 ? `; those on ${answered.join(", ")} were answered with a page (the value ignored)` : ""}.`,
      { refused, ignored: answered },
    );
  }
  if (input.letterCase && (input.letterCase.triggerList !== undefined || input.letterCase.search !== undefined)) {
    const { triggerList, search } = input.letterCase;
    add(
      "identifier_letter_case",
      `The known bot's id in another letter case: its trigger list is ${triggerList ?? "not asked"}, a search for it finds ${search ?? "not asked"}.`,
      { triggerList: triggerList ?? null, search: search ?? null },
    );
  }
  if (input.unlistedVariable !== undefined) {
    const accepted = input.unlistedVariable >= 200 && input.unlistedVariable < 300;
    add(
      "unlisted_variable",
      accepted
        ? "A variable the trigger does not list is ignored: the event fired (200)."
        : `A variable the trigger does not list is refused with ${input.unlistedVariable}.`,
      accepted ? "ignored" : "rejected",
    );
  }

  if (input.dateTimeVariableForms) {
    const answers = Object.entries(input.dateTimeVariableForms);
    add(
      "date_time_variable_forms",
      `DateTime variable values in forms the seed's "ISO 8601" allows beyond RFC 3339 (or RFC 3339's own): ${answers.map(([form, { value, status }]) => `${form} (${JSON.stringify(value)}) ${status >= 200 && status < 300 ? "taken" : "refused"} (${status})`).join(", ")}.`,
      Object.fromEntries(answers.map(([form, { status }]) => [form, status])),
    );
  }

  if (input.triggerList) {
    const list = readTriggerList(input.triggerList.json);
    const shape = list.shape;
    const sentence = {
      array: "a JSON array of descriptors",
      single: "a single descriptor object",
      wrapped: `an object wrapping the array of descriptors in ${JSON.stringify(list.property)}`,
      map: "an object of descriptors keyed by their externalEventId",
      other: "neither an array, a descriptor, an object wrapping one array, nor an object keyed by externalEventId",
    }[shape];
    add("trigger_list_shape", `The trigger list is ${sentence}.`, shape);
  }

  if (input.precedence && Object.keys(input.precedence).length > 0) add("identifier_precedence", ...precedenceOf(input.precedence));

  const empty = pages.find(({ page }) => page.totalItemCount === 0);
  if (empty) {
    const { totalPageCount, fromItemInclusive, toItemExclusive, pageIndex } = empty.page;
    add(
      "empty_result_counts",
      `A search that matches nothing reports totalPageCount ${totalPageCount}, pageIndex ${pageIndex}, fromItemInclusive ${fromItemInclusive}, toItemExclusive ${toItemExclusive}.`,
      { totalPageCount, fromItemInclusive, toItemExclusive },
    );
  }

  const layouts = new Map<string, string>();
  for (const error of session.knowledge.errors) {
    const key = `${error.status}`;
    if (layouts.has(key)) continue;
    const body = error.json;
    const shape = !error.isJson
      ? error.text === ""
        ? "an empty body"
        : `a ${mediaTypeOf(error.headers) || "untyped"} body that is not JSON`
      : typeof body === "object" && body !== null && !Array.isArray(body)
        ? `a JSON object with ${Object.keys(body).sort().join(", ") || "no fields"}`
        : `JSON ${Array.isArray(body) ? "array" : typeof body}`;
    layouts.set(key, `${error.status}: ${shape} (${mediaTypeOf(error.headers) || "no Content-Type"})`);
  }
  if (layouts.size > 0) add("error_body_layout", `Error bodies seen: ${[...layouts.values()].join("; ")}.`, Object.fromEntries(layouts));

  const items = pages.flatMap(({ page }) => page.items);
  const outbound = (session.description.resolve("#/components/schemas/MessageDirection")["examples"] as string[] | undefined) ?? [];
  const directions = [...new Set(items.map((item) => item.latestMessageDirection))].filter((direction) => !outbound.includes(direction));
  if (items.length > 0) {
    add(
      "inbound_direction_spelling",
      directions.length > 0
        ? `latestMessageDirection other than ${outbound.join(", ")}: ${directions.map((value) => JSON.stringify(value)).join(", ")}.`
        : `Only ${outbound.join(", ")} was seen in latestMessageDirection.`,
      directions,
    );
    const nicknames = [
      ...new Set(
        items.flatMap((item) =>
          // Members as the server sent them: any JSON (response_schema_conformance judges the shape).
          (Array.isArray(item.members) ? (item.members as unknown[]) : []).flatMap((member) => {
            if (typeof member !== "object" || member === null) return [];
            const { nickname } = member as { nickname?: unknown };
            return [nickname === null ? "null" : Array.isArray(nickname) ? "array" : typeof nickname];
          }),
        ),
      ),
    ];
    const latest = items.map((item) => item.latestMessageOn as unknown).filter((value): value is string => typeof value === "string");
    const offsetLess = latest.filter((value) => !hasOffset(value));
    add(
      "date_time_offsets",
      offsetLess.length === 0
        ? `Every latestMessageOn seen (${latest.length}) carries an offset.`
        : `${offsetLess.length} of ${latest.length} latestMessageOn values carry no offset (first ${JSON.stringify(offsetLess[0])}); the service names none for it.`,
      { latestMessageOn: { withOffset: latest.length - offsetLess.length, withoutOffset: offsetLess.length } },
    );
    add("nickname_types", `members[].nickname values seen are of type ${nicknames.join(", ") || "(no members)"}.`, nicknames);
  }

  const limits = session.rateLimits;
  if (limits.length > 0) {
    const first = limits[0]!;
    const slowest = limits.at(-1)!;
    add(
      "rate_limit",
      `The server answered ${first.status} with a wait of ${first.retryAfterMs / 1000} s after ${first.afterRequests} requests (${limits.length} times in all); the kit waited each time and slowed to ${slowest.slowedTo} requests per second.`,
      { status: first.status, retryAfterSeconds: first.retryAfterMs / 1000 },
    );
  }
  const headers = [...session.knowledge.headerNames];
  const rateLimit = headers.filter((name) => /rate-?limit|retry-after/.test(name));
  add("rate_limit_headers", rateLimit.length > 0 ? `Rate-limit headers seen: ${rateLimit.join(", ")}.` : "No rate-limit header was seen.", rateLimit);
  const requestId = headers.filter((name) => /request-?id|correlation-?id|trace-?id|traceparent/.test(name));
  add("request_id_headers", requestId.length > 0 ? `Request-id headers seen: ${requestId.join(", ")}.` : "No request-id header was seen.", requestId);
  return findings;
}

/** Sends `status` in lower case and compares with the capitalized value. */
async function discoverStatusCase(session: Session, add: AddFinding): Promise<void> {
  if (!session.canSend) return;
  const operation = operationOf(session.description, "searchConversations");
  const status = (operation.parameters.find((parameter) => parameter.name === "status")?.schema["enum"] as string[] | undefined)?.[0];
  if (!status) return;
  const bot = session.settings.agentStageId ? { agentStageId: session.settings.agentStageId } : {};
  const exact = await session.exchange(caseFor(operation, { query: { ...bot, status } }));
  const lower = await session.exchange(caseFor(operation, { query: { ...bot, status: status.toLowerCase() } }));
  if (!exact || !lower) return;
  const exactPage = pageOf(exact.exchange);
  const lowerPage = pageOf(lower.exchange);
  if (!lowerPage) {
    add("status_letter_case", `status=${status.toLowerCase()} is refused with ${lower.exchange.status}: letter case matters.`, "significant");
  } else if (exactPage && exactPage.totalItemCount > 0 && lowerPage.totalItemCount === exactPage.totalItemCount) {
    add(
      "status_letter_case",
      `status=${status.toLowerCase()} finds the same ${lowerPage.totalItemCount} conversations as status=${status}: letter case is ignored.`,
      "ignored",
    );
  } else if (exactPage && exactPage.totalItemCount > 0 && lowerPage.totalItemCount === 0) {
    add(
      "status_letter_case",
      `status=${status.toLowerCase()} finds nothing while status=${status} finds ${exactPage.totalItemCount}: letter case matters.`,
      "significant",
    );
  } else {
    add(
      "status_letter_case",
      `status=${status.toLowerCase()} gives ${lowerPage.totalItemCount} conversations and status=${status} ${exactPage?.totalItemCount ?? "no page"}: undecided.`,
      "undecided",
    );
  }
}

/** The sentence and value for the answers to the two identifier probes. */
function precedenceOf(statuses: { byConversationId?: number; byExternalConversationId?: number }): [string, string] {
  const { byConversationId: known, byExternalConversationId: external } = statuses;
  const ok = (status: number | undefined): boolean => status !== undefined && status < 300;
  if (known !== undefined && external !== undefined) {
    if (ok(known) && !ok(external))
      return ["With both identifiers, conversationId decides (a wrong externalConversationId is ignored; a wrong conversationId is 404).", "conversationId"];
    if (!ok(known) && ok(external))
      return [
        "With both identifiers, externalConversationId decides (a wrong conversationId is ignored; a wrong externalConversationId is 404).",
        "externalConversationId",
      ];
    if (ok(known) && ok(external)) return ["With both identifiers, either one finding the conversation is enough.", "either"];
    return [`With both identifiers, both must match (${known} and ${external}).`, "both"];
  }
  if (known !== undefined) {
    return ok(known)
      ? ["With a known conversationId and an unknown externalConversationId the event fires: conversationId decides.", "conversationId"]
      : [
          `With a known conversationId and an unknown externalConversationId the answer is ${known}: externalConversationId is consulted.`,
          "externalConversationId",
        ];
  }
  return ok(external)
    ? ["With an unknown conversationId and a known externalConversationId the event fires: externalConversationId decides.", "externalConversationId"]
    : [`With an unknown conversationId and a known externalConversationId the answer is ${external}: conversationId is consulted.`, "conversationId"];
}
