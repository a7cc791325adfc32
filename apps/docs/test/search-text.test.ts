import { describe, expect, it } from "vitest";
import { fieldIndexParagraph, unwrapParagraphs } from "../src/search-text.ts";

describe("unwrapParagraphs", () => {
  it.each([
    [
      "a paragraph's lines join with a space",
      "Lists the triggers, with the variables each\ntrigger accepts.",
      "Lists the triggers, with the variables each trigger accepts.",
    ],
    ["paragraphs stay apart", "One\nline.\n\nTwo\nlines.", "One line.\n\nTwo lines."],
    ["table rows keep their lines", "| a | b |\n|---|---|\n| c | d |", "| a | b |\n|---|---|\n| c | d |"],
    ["list items keep their lines", "Intro:\n\n- one\n- two", "Intro:\n\n- one\n- two"],
    ["fenced code keeps its lines", "```sh\ncurl \\\n  -H x\n```", "```sh\ncurl \\\n  -H x\n```"],
    ["a Markdoc tag keeps its line", 'Text\n\n{% schemaDefinition schemaRef="#/x" /%}', 'Text\n\n{% schemaDefinition schemaRef="#/x" /%}'],
  ])("%s", (_case, markdown, expected) => {
    expect(unwrapParagraphs(markdown)).toBe(expected);
  });
});

describe("fieldIndexParagraph", () => {
  it("lists fields, then values, as code", () => {
    expect(fieldIndexParagraph(["id", "type"], ["Event"])).toBe("Fields on this page: `id`, `type`. Values: `Event`.");
    expect(fieldIndexParagraph(["id"], [])).toBe("Fields on this page: `id`.");
  });
});
