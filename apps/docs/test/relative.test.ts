import { expect, it } from "vitest";
import { relativeAddress, withRelativeAddresses, withRelativeMarkdownLinks } from "../src/relative.ts";

it.each([
  ["/", "#/"],
  ["/section/errors", "#/section/errors"],
  ["/conversations/searchconversations", "#/conversations/searchconversations"],
  ["/sandbox-control.html", "sandbox-control.html"],
  ["/sandbox-control.html#/faults", "sandbox-control.html#/faults"],
  ["llms.txt", "llms.txt"],
  ["#/section/errors", "#/section/errors"],
  ["https://redocly.com/redoc/", "https://redocly.com/redoc/"],
  ["//cdn.example/x.js", "//cdn.example/x.js"],
])("%s becomes %s", (address, relative) => {
  expect(relativeAddress(address)).toBe(relative);
});

it("rewrites a page's links and its viewer import, and leaves no address from the host's root", () => {
  const page = withRelativeAddresses(
    `<link rel="modulepreload" href="/redoc.standalone.js"><a href="/section/errors">Errors</a><script type="module">import { hydrate } from "/redoc.standalone.js";</script>`,
  );
  expect(page).toBe(
    `<link rel="modulepreload" href="redoc.standalone.js"><a href="#/section/errors">Errors</a><script type="module">import { hydrate } from "./redoc.standalone.js";</script>`,
  );
});

it("makes the description's Markdown links to the site relative, and no others", () => {
  const bundle = {
    info: {
      description: "[`ConversationSummary`](/conversation-summary), [Arazzo](https://spec.openapis.org/arazzo/latest.html), [control](/sandbox-control.html)",
    },
  };
  expect(withRelativeMarkdownLinks(bundle).info.description).toBe(
    "[`ConversationSummary`](#/conversation-summary), [Arazzo](https://spec.openapis.org/arazzo/latest.html), [control](sandbox-control.html)",
  );
});
