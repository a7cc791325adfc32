/** The page of the Chromium transport: the MSW worker with the sandbox's handlers, and the scenarios to run in it. */
import { setupWorker } from "msw/browser";
import { createSandboxHandlers } from "../../src/msw.ts";
import { type Call, scenarios } from "./scenarios.ts";

const origin = "https://bots.example.com";
const handlers = createSandboxHandlers({ seed: "scenarios", conversations: 30 });
const worker = setupWorker(...handlers);

const call: Call = (path, { token = "sandbox-token", ...init } = {}) => {
  const headers = new Headers(init.headers);
  if (token !== null) headers.set("x-token", token);
  return fetch(`${origin}${path}`, { ...init, headers });
};

/** Set by the page once the worker intercepts and the sandbox has its data. */
declare global {
  interface Window {
    sandboxReady: Promise<number>;
    runScenario(name: string): Promise<string | null>;
  }
}

window.sandboxReady = (async () => {
  const started = performance.now();
  await worker.start({ quiet: true, onUnhandledFrame: "error" });
  await handlers.sandbox;
  return performance.now() - started;
})();

window.runScenario = async (name) => {
  const scenario = scenarios.find((candidate) => candidate.name === name);
  if (!scenario) return `no scenario ${name}`;
  try {
    await scenario.run(call);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
};
