import { describe, expect, it } from "vitest";
import { caseFor } from "../src/case.ts";
import { loadDescription, operationOf } from "../src/description.ts";
import { evaluate, linkOf, nextPageQuery } from "../src/links.ts";

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
});
