/**
 * The one wording of a schema error (`schemaProblem`), over the real errors of the toolkit's one Ajv
 * (`@bot-conversation/openapi/ajv`, verbose as every surface compiles it).
 */
import { createAjv } from "@bot-conversation/openapi/ajv";
import { describe, expect, test } from "vitest";
import { type SchemaProblem, type SchemaProblemOptions, schemaProblem } from "../src/text.js";

const ajv = createAjv({ verbose: true });

/** Every problem of `value` against `schema`, worded. */
function problems(schema: object, value: unknown, options?: SchemaProblemOptions): SchemaProblem[] {
  const validate = ajv.compile(schema);
  return validate(value) ? [] : (validate.errors ?? []).map((error) => schemaProblem(error, options));
}

const page = {
  type: "object",
  properties: {
    pageSize: { type: "integer", minimum: 1 },
    status: { type: "string", enum: ["Active", "Closed", "Operator"] },
    startFromDate: { type: "string", format: "date-time" },
    name: { type: "string", maxLength: 3 },
  },
  required: ["pageSize"],
  additionalProperties: false,
};

describe("a schema error in the one wording: a JSON pointer, what was expected and what came", () => {
  test.each([
    ["a value under a range", { pageSize: 0 }, [{ pointer: "/pageSize", message: "expected an integer of at least 1; got 0" }]],
    ["a wrong type", { pageSize: "ten" }, [{ pointer: "/pageSize", message: 'expected an integer of at least 1; got "ten"' }]],
    [
      "a value outside an enumeration",
      { pageSize: 1, status: "Weird" },
      [{ pointer: "/status", message: 'expected one of Active, Closed, Operator; got "Weird"' }],
    ],
    [
      "a malformed date, with the description's date example",
      { pageSize: 1, startFromDate: "today" },
      [{ pointer: "/startFromDate", message: 'expected an ISO 8601 date-time such as 2026-11-20T09:15:02+03:00; got "today"' }],
    ],
    ["a missing property", {}, [{ pointer: "/pageSize", message: "expected an integer of at least 1; got nothing" }]],
    [
      "a property the schema does not list",
      { pageSize: 1, mood: "ok" },
      [{ pointer: "/mood", message: "expected only the properties pageSize, status, startFromDate, name here; got this one" }],
    ],
    [
      "a keyword with no words of its own",
      { pageSize: 1, name: "long" },
      [{ pointer: "/name", message: 'expected a value that must NOT have more than 3 characters; got "long"' }],
    ],
  ])("%s", (_case, value, expected) => {
    expect(problems(page, value)).toEqual(expected);
  });

  test("a property name a schema refuses (its own error and propertyNames' say the same), and a value where nothing is allowed", () => {
    const name = { pointer: "/a", message: 'expected a property name that is a non-empty string; got "a"' };
    expect(problems({ type: "object", propertyNames: { minLength: 2 } }, { a: 1 })).toEqual([name, name]);
    expect(problems({ type: "object", properties: { x: false } }, { x: 1 })).toEqual([{ pointer: "/x", message: "expected nothing here; got 1" }]);
  });

  test("an anyOf's own error names every alternative; a $ref not followed is named by its schema", () => {
    const anyOf = { anyOf: [{ type: "integer", minimum: 1 }, { type: "null" }] };
    expect(problems(anyOf, "x").at(-1)).toEqual({ pointer: "", message: 'expected an integer of at least 1 or null; got "x"' });
    const member = { $ref: "#/components/schemas/Member" };
    expect(
      schemaProblem({ keyword: "required", instancePath: "", params: { missingProperty: "from" }, parentSchema: { properties: { from: member } } }),
    ).toEqual({
      pointer: "/from",
      message: "expected a Member; got nothing",
    });
  });

  test("the place escapes / and ~ as a JSON pointer does, and array items are indexes", () => {
    expect(problems({ type: "object", additionalProperties: false }, { "a/b~c": 1 })).toEqual([
      { pointer: "/a~1b~0c", message: "expected no property the schema does not list here; got this one" },
    ]);
    expect(problems({ type: "array", items: { type: "integer" } }, [1, "x"])).toEqual([{ pointer: "/1", message: 'expected an integer; got "x"' }]);
  });

  test("control characters and bidi overrides in a name or a value are made visible; a value is cut at 40 characters", () => {
    expect(problems({ type: "object", additionalProperties: false }, { "x\u001b[2J\u202e": 1 })).toEqual([
      { pointer: "/x\\x1b[2J\\u202e", message: "expected no property the schema does not list here; got this one" },
    ]);
    expect(problems({ type: "integer" }, "\u0085".repeat(50))[0]?.message).toBe(`expected an integer; got "${"\\x85".repeat(39)}...`);
  });

  test("values typed, never shown, on request (an end user's words), and secrets never shown", () => {
    expect(problems(page, { pageSize: "secret words" }, { values: "types" })).toEqual([
      { pointer: "/pageSize", message: "expected an integer of at least 1; got a string" },
    ]);
    expect(problems(page, { pageSize: 1, status: { a: 1 } }, { values: "types" })[0]?.message).toBe("expected one of Active, Closed, Operator; got an object");
    expect(problems(page, { pageSize: "tok-12345678" }, { tokens: ["tok-12345678"] })[0]?.message).toBe('expected an integer of at least 1; got "[redacted]"');
  });

  test("the text sent stands for the root value when given (a query parameter read as a number)", () => {
    expect(problems({ type: "integer", minimum: 1 }, 0, { sent: "0" })).toEqual([{ pointer: "", message: 'expected an integer of at least 1; got "0"' }]);
  });
});
