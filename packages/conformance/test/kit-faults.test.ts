import { parseDateTime } from "@bot-conversation/client";
import { describe, expect, it } from "vitest";
import type { CheckName, ConformanceOptions } from "../src/index.ts";
import {
  chunkedBodyUnread,
  crossedAnswersInFlight,
  editItems,
  engineFault,
  filtersOf,
  fireTouchingAnother,
  firing,
  isFire,
  isSearch,
  laxVariable,
  oneLineJsonOnly,
  shoutedMemberNames,
  staleTrigger,
} from "./support/family-faults.ts";
import { editJson, type Fault } from "./support/faulty-proxy.ts";
import { caseTimeoutMs, failing, seedRunner, why } from "./support/kit-seeds.ts";
import { sandboxExportPath, useSandbox } from "./support/sandbox.ts";

const runSeeds = seedRunner(useSandbox());

/** One fault per class of what server teams ship, the check meant to catch it, and the checks that may rightly catch it too. */
const faults: ReadonlyArray<{
  name: string;
  check: CheckName;
  related?: CheckName[];
  fault: Fault | (() => Fault);
  options?: Partial<ConformanceOptions>;
  warning?: RegExp;
  /** The relation of the report that must count the failure. */
  relation?: string;
}> = [
  {
    // A time without an offset or a date alone is ISO 8601, which the seed allows: that is a finding (kit-open-points).
    name: "a DateTime taking any string, in no form of ISO 8601",
    check: "payload_validation_rejection",
    fault: laxVariable("deliveryDate", (value) => typeof value === "string"),
    options: firing,
  },
  {
    name: "a File taking a name without an extension",
    check: "payload_validation_rejection",
    fault: laxVariable("invoice", (value) => typeof value === "object" && value !== null && typeof (value as { name?: unknown }).name === "string"),
    options: firing,
  },
  {
    name: "an external conversation id matched by its session whatever the suffix",
    check: "unknown_conversation_not_found",
    fault: {
      request: (url, _headers, upstream, body) => {
        const request = JSON.parse(body || "{}") as { externalConversationId?: unknown };
        const id = request.externalConversationId;
        if (!isFire(url) || typeof id !== "string" || !id.includes("|") || id.endsWith("|livechat")) return undefined;
        return upstream(url, JSON.stringify({ ...request, externalConversationId: `${id.split("|")[0]}|livechat` }));
      },
    },
    options: firing,
  },
  {
    name: "the token compared without letter case",
    check: "ignored_auth",
    fault: { request: (_url, headers) => void (headers.get("x-token")?.toLowerCase() === "sandbox-token" && headers.set("x-token", "sandbox-token")) },
  },
  {
    name: "white space removed from the token",
    check: "ignored_auth",
    fault: { request: (_url, headers) => void (headers.has("x-token") && headers.set("x-token", headers.get("x-token")!.replace(/\s+/g, ""))) },
  },
  {
    name: "the token not checked on later pages of a filtered search",
    check: "ignored_auth",
    fault: {
      request: (url, headers) =>
        void (isSearch(url) && Number(url.searchParams.get("pageIndex") ?? 0) > 0 && url.searchParams.has("status") && headers.set("x-token", "sandbox-token")),
    },
  },
  {
    name: "a later page of a search with two filters repeating the first page",
    check: "filter_combination",
    related: ["search_model"],
    fault: {
      request: async (url, _headers, upstream, _body, method) => {
        const filters = ["status", "channelId", "startFromDate", "latestMessageToDate"].filter((name) => url.searchParams.has(name));
        if (!isSearch(url) || method !== "GET" || filters.length < 2 || Number(url.searchParams.get("pageIndex") ?? 0) === 0) return undefined;
        const answer = await upstream(url);
        const first = new URL(url);
        first.searchParams.set("pageIndex", "0");
        const firstItems = (JSON.parse((await upstream(first)).body) as { items: unknown[] }).items;
        if (answer.status === 200)
          editJson(answer, (page) => ({ ...(page as object), items: firstItems.slice(0, (page as { items: unknown[] }).items.length) }));
        return answer;
      },
    },
  },
  // Faults in places the kit's code never names, caught by a relation or by the model with no edit in the kit.
  {
    name: "totalItemCount one more only when two filters are combined, every other count consistent with it",
    check: "search_model",
    related: ["envelope_math", "filter_combination", "paging_walk"],
    fault: engineFault(
      (url) => filtersOf(url).length >= 2,
      (items) => items,
      1,
    ),
  },
  {
    // Each later page is consistent in itself: only the search's pages together, or the model, show the loss.
    name: "a filtered search's later pages starting one conversation late (the conversation at the first page boundary never shown)",
    check: "search_model",
    related: ["filter_combination", "paging_walk", "filter_inclusion"],
    fault: engineFault(
      (url) => filtersOf(url).length > 0 && Number(url.searchParams.get("pageIndex") ?? 0) > 0,
      (items) => items.slice(1),
    ),
  },
  {
    name: "a search at an odd page size leaving out its oldest conversation, counts consistent",
    check: "metamorphic_relations",
    related: ["search_model", "filter_combination", "filter_inclusion", "paging_walk"],
    fault: engineFault(
      (url) => Number(url.searchParams.get("pageSize") ?? 0) % 2 === 1,
      (items) => items.slice(0, -1),
    ),
  },
  {
    name: "If-None-Match answered 304 whatever the tag",
    check: "metamorphic_relations",
    related: ["status_code_conformance"],
    fault: {
      request: (_url, headers) =>
        headers.has("if-none-match") && headers.get("x-token") === "sandbox-token" ? { status: 304, headers: {}, body: "" } : undefined,
    },
  },
  // Faults between operations (issue 48, item 3), each in a place the kit's code never names.
  {
    name: "search results writing every member's name in upper case, the export keeping the conversation's own",
    check: "operation_consistency",
    fault: shoutedMemberNames,
    options: { exportPath: sandboxExportPath },
    relation: "search_as_export",
  },
  {
    name: "a trigger the list still names (callback-requested) answered 404 whenever its values are right",
    check: "operation_consistency",
    fault: staleTrigger("callback-requested", (payload) => Object.values(payload).every((value) => !Number.isNaN(parseDateTime(value)))),
    options: firing,
    relation: "listed_trigger_fires",
  },
  {
    name: "a fire taken changing another conversation's last message text in every later search",
    check: "operation_consistency",
    fault: fireTouchingAnother("conversation-010"),
    options: firing,
    relation: "fire_changes_its_conversation",
  },
  {
    name: "searches in flight together answered with one another's bodies",
    check: "operation_consistency",
    fault: crossedAnswersInFlight,
    relation: "concurrent_as_sequential",
  },
  // Faults of the body's framing and spelling (issue 48, item 4): relations on every request with a body.
  {
    name: "a fire body sent chunked read as empty (the body read by its Content-Length only)",
    check: "metamorphic_relations",
    fault: chunkedBodyUnread,
    options: firing,
    relation: "body_chunked",
  },
  {
    name: "a fire body with a line break or a tab refused (JSON read on one line only)",
    check: "metamorphic_relations",
    fault: oneLineJsonOnly,
    options: firing,
    relation: "json_whitespace",
  },
  { name: "agentStageId ignored", check: "bot_filter_match", fault: { request: (url) => void (isSearch(url) && url.searchParams.delete("agentStageId")) } },
  {
    name: "startedOn written with a space instead of T",
    check: "response_schema_conformance",
    fault: editItems((item) => void (item["startedOn"] = String(item["startedOn"]).replace("T", " "))),
  },
  {
    name: "hasMore always false (the kit's look-up of a conversation on a later page)",
    check: "envelope_math",
    related: ["paging_walk", "filter_combination", "filter_inclusion"],
    fault: {
      response: (url, response) => void (isSearch(url) && response.status === 200 && editJson(response, (page) => ({ ...(page as object), hasMore: false }))),
    },
    options: { ...firing, conversationId: "conversation-050" },
    // The run goes on (no usage error, exit 2): the look-up that paging broke is a warning, the paging a failure.
    warning: /conversation-050.*the server's paging ended after 20 of the 57 conversations/,
  },
];

describe("what server teams ship, one fault at a time, across 20 seeds", () => {
  it("the unbroken proxy passes every check under every seed", { timeout: caseTimeoutMs }, async () => {
    for (const report of await runSeeds({}, firing)) expect(failing(report), why(report)).toEqual([]);
  });

  it.each(faults)(
    "$name is caught by $check and by no unrelated check",
    { timeout: caseTimeoutMs },
    async ({ fault, check, related = [], options, warning, relation }) => {
      for (const report of await runSeeds(fault, options)) {
        const failed = failing(report);
        expect(failed, `seed ${report.seed}`).toContain(check);
        expect(
          failed.filter((name) => name !== check && !(related as string[]).includes(name)),
          why(report),
        ).toEqual([]);
        expect(report.checks.find((result) => result.name === check)!.failures[0]!.rule).not.toBe("");
        if (warning) expect(report.warnings.join("\n")).toMatch(warning);
        if (relation) expect(report.relations.find((each) => each.name === relation)?.failed, `${relation}, seed ${report.seed}`).toBeGreaterThan(0);
      }
    },
  );
});
