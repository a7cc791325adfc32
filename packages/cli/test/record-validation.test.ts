/**
 * The recorder matches an exchange to its operation through `@bot-conversation/openapi`'s compiled description, with
 * HEAD as GET turned off there (`operationOf`'s `headAsGet` option: the rule is stated once): it judges only the
 * methods the description names. Every case is derived from the description.
 */
import { loadDescription } from "@bot-conversation/conformance";
import { compileDescription } from "@bot-conversation/openapi";
import { describe, expect, it } from "vitest";
import { ExchangeValidator } from "../src/record/validation.ts";

const description = loadDescription();
const validator = new ExchangeValidator(description);
const operations = compileDescription(description.document).operations;

describe("the recorder's operation of an exchange", () => {
  it.each(operations.map((operation) => [operation.method.toUpperCase(), operation.path, operation] as const))(
    "%s %s is its operation; a HEAD of it is none",
    (method, _, operation) => {
      const path = operation.template.fill(() => "bot%2F1");
      expect(validator.match(method, path)).toEqual({
        id: operation.id,
        pathParameters: Object.fromEntries(operation.template.parameterNames.map((name) => [name, "bot/1"])),
      });
      if (method === "GET") expect(validator.match("HEAD", path)).toBeUndefined();
    },
  );
});
