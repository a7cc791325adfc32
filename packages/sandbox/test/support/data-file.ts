/**
 * What the `--data` tests share: sandboxes started as processes on a data file (each stopped after its test file),
 * a scratch folder, a fixture file, and the fires and fired-events reads they check a file by. Called once per test
 * file (`dataFileHarness()`), whose hooks then remove what that file made: files share their worker's module cache,
 * so nothing here is made at import.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect } from "vitest";
import { type LaunchedSandbox, launchSandbox } from "../../src/index.ts";
import { exampleFixture } from "./fixture.ts";

/** The sandbox's entry point, for the tests that start it under a wrapper of their own (a mount namespace, a file-size limit). */
export const sandboxMain = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

/** The headers of every request: the default token, and a JSON body. */
export const headers = { "x-token": "sandbox-token", "content-type": "application/json" };
/** The fire operation's path. */
export const firePath = "/api/v1/runtime/simple/external/events";
/** The example fixture's conversation, which every fire goes to. */
export const conversationId = "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c";

/** Fires the example trigger with `marker` as its order number. */
export const fire = (url: string, marker: string) =>
  fetch(`${url}${firePath}`, {
    method: "POST",
    headers,
    body: JSON.stringify({ conversationId, externalEventId: "order-status-changed", externalEventPayload: { orderNumber: marker } }),
  });

/** Every fired event's marker, following the pages. */
export async function firedMarkers(url: string): Promise<string[]> {
  const markers: string[] = [];
  for (let next: string | null = "/_sandbox/fired-events?limit=10000"; next !== null; ) {
    const response: Response = await fetch(`${url}${next}`, { headers });
    markers.push(...((await response.json()) as { externalEventPayload: { orderNumber: string } }[]).map((event) => event.externalEventPayload.orderNumber));
    next = /^<([^>]+)>; rel="next"$/.exec(response.headers.get("link") ?? "")?.[1] ?? null;
  }
  return markers;
}

/** The one line a refused start prints (the ExperimentalWarning of Node 22's node:sqlite aside). */
export const refusalLine = (output: string) => output.split("\n").filter((line) => line !== "" && !/ExperimentalWarning|--trace-warnings/.test(line));

/** One test file's scratch folder (with the example fixture in `fixtureFile`) and sandboxes, removed and killed after the file. */
export function dataFileHarness() {
  const scratch = mkdtempSync(join(tmpdir(), "sandbox-data-"));
  const running = new Set<LaunchedSandbox>();
  afterAll(async () => {
    for (const sandbox of running) await sandbox.stop("SIGKILL");
    rmSync(scratch, { recursive: true, force: true });
  });
  const fixtureFile = join(scratch, "fixture.json");
  writeFileSync(fixtureFile, JSON.stringify(exampleFixture()));

  /** Starts a sandbox with the arguments, killed after the file if a test does not stop it. */
  async function start(args: string[]): Promise<LaunchedSandbox> {
    const sandbox = await launchSandbox(args);
    running.add(sandbox);
    return sandbox;
  }
  /** Stops a sandbox started by `start`. */
  async function stop(sandbox: LaunchedSandbox, signal: NodeJS.Signals = "SIGTERM") {
    running.delete(sandbox);
    return sandbox.stop(signal);
  }
  /** A start that must fail: its exit code and what it printed. */
  async function refused(args: string[]): Promise<{ code: number | null; output: string }> {
    const failure = (await start(args).then(
      async (sandbox) => {
        await stop(sandbox, "SIGKILL");
        throw new Error(`started with ${args.join(" ")}`);
      },
      (error: unknown) => error,
    )) as { code: number | null; output: string };
    return failure;
  }
  /** A data file made by a sandbox (the fixture's data and one fired event), then stopped. */
  async function madeDataFile(name: string): Promise<string> {
    const data = join(scratch, name);
    const sandbox = await start(["--data", data, "--fixture", fixtureFile]);
    expect((await fire(sandbox.url, "made")).status).toBe(200);
    await stop(sandbox);
    return data;
  }
  return { scratch, fixtureFile, start, stop, refused, madeDataFile };
}
