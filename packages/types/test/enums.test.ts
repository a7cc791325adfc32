import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { arrayName, bundleFile, renderEnums } from "../scripts/generate-enums.ts";
import * as types from "../src/index.js";

const document = JSON.parse(await readFile(bundleFile, "utf8")) as {
  components: { schemas: Record<string, { enum?: string[] }> };
};
const enumerations = Object.entries(document.components.schemas).filter(([, schema]) => schema.enum);

describe("enumeration value arrays", () => {
  test("the description has the nine enumerations of the seed", () => {
    expect(enumerations.map(([name]) => name).sort()).toEqual([
      "ActivityType",
      "ConversationClosingReason",
      "ConversationClosingStatus",
      "ConversationRole",
      "ConversationStatus",
      "EventName",
      "PrompterModeEventName",
      "TriggerName",
      "VariableType",
    ]);
  });

  test.each(enumerations)("%s is exported with the description's values, once each", (name, schema) => {
    const values = (types as Record<string, unknown>)[arrayName(name)];
    expect(values).toEqual(schema.enum);
    expect(new Set(values as string[]).size).toBe((values as string[]).length);
  });
});

describe("the rendered module", () => {
  test("does not depend on the order in which the bundle lists its components", () => {
    const reversed = { components: { schemas: Object.fromEntries(Object.entries(document.components.schemas).reverse()) } };
    expect(renderEnums(reversed)).toBe(renderEnums(document as Parameters<typeof renderEnums>[0]));
  });
});
