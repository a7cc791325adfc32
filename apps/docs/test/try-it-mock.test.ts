import { readFileSync } from "node:fs";
import { useMock } from "@bot-conversation/mock/testing";
import { describe, expect, it } from "vitest";
import { bundlePath } from "../src/paths.ts";
import { useSite } from "./support/browser.ts";
import { openPanel, send } from "./support/try-it.ts";

const mock = useMock();
const site = useSite();
const description = JSON.parse(readFileSync(bundlePath, "utf8")) as { components: { examples: Record<string, { value: unknown }> } };

describe("Try it, in Chromium, against the real Prism mock", () => {
  it("a search gets the description's example page, across origins (the mock answers CORS)", async () => {
    const panel = await openPanel(site, "/conversations/searchconversations", "searchConversations", mock().url, "any-value");
    const result = await send(panel, { pageSize: "2" });
    expect(result.status).toBe("200 OK (application/json)");
    const examplePages = Object.values(description.components.examples).map(({ value }) => value);
    expect(examplePages).toContainEqual(JSON.parse(result.body));
    expect(site.errors).toEqual([]);
  });
});
