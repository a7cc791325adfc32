import { expect, it } from "vitest";
import { operations, schemaErrors } from "./support/bundle.ts";
import { call, jsonBody, token, useMock } from "./support/mock.ts";

const mock = useMock({ dynamic: true });

/** Length of the longest array anywhere in a JSON value. */
function longestArray(value: unknown): number {
  if (Array.isArray(value)) return Math.max(value.length, ...value.map(longestArray));
  if (value !== null && typeof value === "object") return Math.max(0, ...Object.values(value).map(longestArray));
  return 0;
}

const withBody = operations.filter((operation) => operation.responses["200"]);

it.each(withBody)("$operationId generates a small, schema-valid body, the same on every request", async (operation) => {
  const first = await jsonBody(await call(mock(), operation, token));
  const second = await jsonBody(await call(mock(), operation, token));
  expect(schemaErrors(operation.responses["200"]!, first)).toBeUndefined();
  expect(second).toEqual(first);
  // x-json-schema-faker in the description caps arrays at two items.
  expect(longestArray(first)).toBeLessThanOrEqual(2);
});

it("a generated search page is the same whatever page is asked for, so it cannot be walked (README, Dynamic mode)", async () => {
  const page = async (pageIndex: number) =>
    (await (await fetch(`${mock().url}/api/v2/channels/conversations?pageSize=2&pageIndex=${pageIndex}`, { headers: { "X-Token": "mock-token" } })).json()) as {
      pageIndex: number;
      hasMore: boolean;
    };
  const first = await page(0);
  const later = await page(first.pageIndex + 1);
  // Prism keeps no state and echoes no parameter: the next page asked for is answered with the same body.
  expect(later).toEqual(first);
  expect(later.pageIndex).not.toBe(first.pageIndex + 1);
});
