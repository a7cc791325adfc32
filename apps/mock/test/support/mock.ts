import type { RunningMock } from "../../src/prism.ts";
import type { Operation } from "./bundle.ts";

export { useMock } from "../../src/testing.ts";

/** Sends the operation's request (with its example body) to the mock. */
export async function call(mock: RunningMock, operation: Operation, headers: Record<string, string> = {}): Promise<Response> {
  const hasBody = operation.requestBody !== undefined;
  return fetch(`${mock.url}${operation.path}`, {
    method: operation.method,
    headers: { ...(hasBody ? { "content-type": "application/json" } : {}), ...headers },
    ...(hasBody ? { body: JSON.stringify(operation.requestBody) } : {}),
  });
}

/** Reads a response body as JSON, or `undefined` when it is empty. */
export async function jsonBody(response: Response): Promise<unknown> {
  const text = await response.text();
  return text === "" ? undefined : JSON.parse(text);
}

/** The token header every operation needs; the mock accepts any value. */
export const token = { "X-Token": "mock-token" };
