import { once } from "node:events";
import { createServer } from "node:http";
import { afterEach, expect, test } from "vitest";
import { defaultMockOptions } from "../src/options.ts";
import { PrismExitedError, type RunningMock, startMock, startMockOnFreePort } from "../src/prism.ts";

const started: RunningMock[] = [];
afterEach(async () => {
  for (const mock of started.splice(0)) await mock.stop();
});

test("a port another server already answers on is not taken for this Prism: startMock rejects with PrismExitedError", async () => {
  // Another server answers every request, CORS preflights included, on the port Prism is asked for.
  const other = createServer((_request, response) => response.writeHead(204).end());
  other.listen(0, "127.0.0.1");
  await once(other, "listening");
  const port = (other.address() as { port: number }).port;
  try {
    await expect(startMock({ ...defaultMockOptions, port }, "ignore")).rejects.toBeInstanceOf(PrismExitedError);
  } finally {
    other.close();
  }
});

test("startMock with port 0 lets Prism bind any free port and reports the port it bound", async () => {
  const mock = await startMock({ ...defaultMockOptions, port: 0 }, "ignore");
  started.push(mock);
  expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
  const response = await fetch(`${mock.url}/api/v1/runtime/simple/external/events/5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c`, {
    headers: { "X-Token": "mock-token" },
  });
  expect(response.status).toBe(200);
});

test("startMockOnFreePort starts a Prism that is itself the one answering", async () => {
  const mock = await startMockOnFreePort(defaultMockOptions);
  started.push(mock);
  const response = await fetch(`${mock.url}/api/v1/runtime/simple/external/events/5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c`, {
    headers: { "X-Token": "mock-token" },
  });
  expect(response.status).toBe(200);
  await mock.stop();
  // Once this Prism stops, nothing answers there: the answer above came from it.
  await expect(fetch(mock.url)).rejects.toThrow();
});
