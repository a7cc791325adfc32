import { afterAll, beforeAll } from "vitest";
import { startMockOnFreePort, type RunningMock } from "../../src/prism.ts";
import { defaultMockOptions } from "../../src/options.ts";
import type { Operation } from "./bundle.ts";

/** Starts the real Prism on 127.0.0.1 and an ephemeral port; stop it in `afterAll`. */
export async function startTestMock(dynamic = false): Promise<RunningMock> {
  return startMockOnFreePort({ ...defaultMockOptions, dynamic });
}

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

/** Starts one mock for the calling test file (beforeAll) and stops it (afterAll); call the result to get it. */
export function useTestMock(dynamic = false): () => RunningMock {
  let mock: RunningMock | undefined;
  beforeAll(async () => {
    mock = await startTestMock(dynamic);
  });
  afterAll(async () => {
    await mock?.stop();
  });
  return () => {
    if (!mock) throw new Error("mock not started");
    return mock;
  };
}
