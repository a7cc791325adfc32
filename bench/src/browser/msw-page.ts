/**
 * The bench's page: the sandbox's MSW handlers in the browser, and a bare MSW handler answering the
 * same bytes, so the sandbox's cost per request is read against MSW's own in the same page.
 */

import { createSandboxHandlers } from "@bot-conversation/sandbox/msw";
import { setupWorker } from "msw/browser";
import { HttpResponse, http } from "msw/http";

declare global {
  interface Window {
    benchReady: Promise<{ workerMs: number; sandboxMs: number }>;
    timeRequests(path: string, count: number): Promise<number[]>;
  }
}

const state = (new URLSearchParams(location.search).get("state") ?? "default") as "default" | "large";
let bareBody = "{}";
window.benchReady = (async () => {
  const started = performance.now();
  const handlers = createSandboxHandlers({ state, baseUrl: "https://sandbox.bench" });
  await handlers.sandbox;
  const sandboxMs = performance.now() - started;
  const worker = setupWorker(
    ...handlers,
    http.get("https://bare.bench/*", () => HttpResponse.text(bareBody, { headers: { "content-type": "application/json" } })),
  );
  const workerStarted = performance.now();
  await worker.start({ quiet: true, onUnhandledFrame: "error" });
  // The bare handler answers exactly what the sandbox answers for the default search.
  bareBody = await (await fetch("https://sandbox.bench/api/v2/channels/conversations", { headers: { "x-token": "sandbox-token" } })).text();
  return { workerMs: performance.now() - workerStarted, sandboxMs };
})();

window.timeRequests = async (url, count) => {
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const sent = performance.now();
    await (await fetch(url, { headers: { "x-token": "sandbox-token" } })).text();
    times.push(performance.now() - sent);
  }
  return times;
};
