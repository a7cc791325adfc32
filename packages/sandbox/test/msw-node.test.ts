import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSandboxHandlers, type Fixture } from "../src/msw.ts";
// A fixture imported from JSON, as a team imports a recording's fixture.json: accepted with no cast.
import recorded from "./fixtures/small-recording.json" with { type: "json" };

describe("the MSW handlers where teams test", () => {
  test("on a Node.js older than MSW 3 needs, one clear error naming the version needed", async () => {
    // The check reads the running Node's version: a Node 20 is stood in for by its version string.
    const script = `Object.defineProperty(process, "versions", { value: { ...process.versions, node: "20.18.0" } });
const { createSandboxHandlers } = await import("@bot-conversation/sandbox/msw");
try { createSandboxHandlers(); console.log("no error"); } catch (error) { console.log(error.message); }`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script]);
    expect(stdout.trim()).toBe(
      "createSandboxHandlers: MSW 3 needs Node.js 22.12 or later (it calls Promise.withResolvers); this is Node.js 20.18.0. Run the tests on Node.js 22.12+, or use createSandbox's fetch instead of MSW.",
    );
  });

  describe("a fixture imported from JSON", () => {
    const server = setupServer(...createSandboxHandlers({ fixture: recorded, baseUrl: "https://bots.example.com" }));
    beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
    afterAll(() => server.close());

    test("is served as any fixture, and Fixture is exported from /msw", async () => {
      const response = await fetch("https://bots.example.com/api/v1/runtime/simple/external/events/bot-json", { headers: { "X-Token": "sandbox-token" } });
      const expected: Fixture["bots"][number]["triggers"] = recorded.bots[0]!.triggers as Fixture["bots"][number]["triggers"];
      expect(await response.json()).toEqual(expected);
    });
  });
});
