import { describe, expect, it } from "vitest";
import { caseFor } from "../src/case.ts";
import { loadDescription, operationOf } from "../src/description.ts";
import { evaluate, linkedBody, linkOf, nextPageQuery } from "../src/links.ts";

const description = loadDescription();
const search = caseFor(operationOf(description, "searchConversations"), { query: { agentStageId: "bot-1", status: "Active", pageSize: "5", pageIndex: "0" } });

describe("the kit follows the description's links", () => {
  it("the next page: the filters sent and the pageSize the server reported, with pageIndex the returned one plus one", () => {
    // The server capped the page at 4: the link carries the reported size, not the one asked for.
    expect(nextPageQuery(description, search, { pageIndex: 0, pageSize: 4, hasMore: true, items: [] })).toEqual({
      agentStageId: "bot-1",
      status: "Active",
      pageSize: "4",
      pageIndex: "1",
    });
  });

  it("a fire's identifiers from a search page and a trigger list, by the links' expressions", () => {
    const byConversation = linkOf(description, "searchConversations", "fireByConversationId")!;
    expect(byConversation.operationId).toBe("fireExternalEvent");
    expect(evaluate(byConversation.requestBody["conversationId"]!, search, { items: [{ id: "conversation-7" }] })).toBe("conversation-7");
    const fireTrigger = linkOf(description, "listExternalEventTriggers", "fireTrigger")!;
    expect(evaluate(fireTrigger.requestBody["externalEventId"]!, search, [{ externalEventId: "order-status-changed" }])).toBe("order-status-changed");
    expect(evaluate("$request.query.channelId", search, {})).toBeUndefined();
  });

  it("a fire's body from the answers leading to it: every link to fireExternalEvent, evaluated on its own answer", () => {
    const triggers = caseFor(operationOf(description, "listExternalEventTriggers"), { path: { agentStageId: "bot-1" } });
    const sources = [
      { operationId: "searchConversations", request: search, body: { items: [{ id: "conversation-7" }] } },
      { operationId: "listExternalEventTriggers", request: triggers, body: [{ externalEventId: "order-paid", parameters: {} }] },
    ];
    expect(linkedBody(description, "fireExternalEvent", sources)).toEqual({ conversationId: "conversation-7", externalEventId: "order-paid" });
    // No link leads from a search to a search's body, nor from an answer that names nothing.
    expect(linkedBody(description, "searchConversations", sources)).toEqual({});
    expect(linkedBody(description, "fireExternalEvent", [{ ...sources[1]!, body: [] }])).toEqual({});
  });

  it("a field the description adds to a link is carried with no edit in the kit", () => {
    const document = structuredClone(description.document) as {
      paths: Record<string, Record<string, { responses: Record<string, { links: Record<string, { requestBody: Record<string, string> }> }> }>>;
    };
    const listPath = Object.keys(document.paths).find((path) => path.includes("{agentStageId}"))!;
    document.paths[listPath]!["get"]!.responses["200"]!.links["fireTrigger"]!.requestBody["externalEventPayload"] = "$response.body#/0/parameters";
    const widened = { ...description, document };
    const triggers = caseFor(operationOf(description, "listExternalEventTriggers"), { path: { agentStageId: "bot-1" } });
    expect(
      linkedBody(widened, "fireExternalEvent", [
        { operationId: "listExternalEventTriggers", request: triggers, body: [{ externalEventId: "order-paid", parameters: { a: 1 } }] },
      ]),
    ).toEqual({ externalEventId: "order-paid", externalEventPayload: { a: 1 } });
  });
});
