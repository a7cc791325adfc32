import { expect, it } from "vitest";
import { concreteStatus, namedResponseExamples } from "./support/bundle.ts";
import { call, jsonBody, token, useMock } from "./support/mock.ts";

const mock = useMock();

it("finds named examples to fetch", () => {
  expect(namedResponseExamples.map(({ name }) => name)).toEqual(expect.arrayContaining(["firstPage", "lastPage", "noMatch", "triggerArray"]));
});

it.each(namedResponseExamples.map((example) => ({ ...example, operationId: example.operation.operationId })))(
  "$operationId $status serves example $name on Prefer: code=…, example=$name",
  async ({ operation, status, name, value }) => {
    const response = await call(mock(), operation, { ...token, Prefer: `code=${concreteStatus(status)}, example=${name}` });
    expect(response.status).toBe(concreteStatus(status));
    expect(await jsonBody(response)).toEqual(value);
  },
);
