import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { afterEach, expect, it, vi } from "vitest";
import { token } from "./support/mock.ts";
import { type WatchedProcess, watch } from "./support/process.ts";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

const mainPath = fileURLToPath(new URL("../src/main.ts", import.meta.url));
const packageDir = fileURLToPath(new URL("..", import.meta.url));
/** Each test starts Prism itself (once through pnpm); under CI's full parallel load a start alone has taken over 30 s. */
const processTestTimeoutMs = heavyTestTimeoutMs;

/** How long a launcher may take to stop its Prism after the test; then the whole group is killed. */
const stopGraceMs = 10_000;

/** Whether any process of the group led by `pid` (the launcher or pnpm, and Prism under it) is still alive. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

let running: WatchedProcess | undefined;
// Every launcher leads its own process group, so a test that leaves it running stops Prism with it:
// killing the launcher alone would leave its Prism serving with no parent.
afterEach(async () => {
  const pid = running?.child.pid;
  running = undefined;
  if (pid === undefined || !groupAlive(pid)) return;
  process.kill(-pid, "SIGTERM");
  for (const deadline = Date.now() + stopGraceMs; groupAlive(pid) && Date.now() < deadline; ) await sleep(100);
  if (groupAlive(pid)) process.kill(-pid, "SIGKILL");
});

/** The ready line of a launcher given `--port 0`: the port Prism bound, never 0, so nothing picks a port in advance. */
const readyOnAnyPort = /^Mock ready at (http:\/\/127\.0\.0\.1:[1-9]\d*)$/;

/** Starts the launcher with `--port 0` and waits for its ready line, which names the port Prism bound. */
async function startLauncher(): Promise<{ launcher: WatchedProcess; url: string; readyLine: string }> {
  running = watch(process.execPath, [mainPath, "--port", "0"], { detached: true });
  const readyLine = await running.waitForLine(/^Mock ready at /);
  const url = readyOnAnyPort.exec(readyLine)?.[1];
  if (url === undefined) throw new Error(`ready line without a bound port: ${readyLine}`);
  return { launcher: running, url, readyLine };
}

it(
  "prints the URL when ready with no error in the log, answers, and stops cleanly on a double SIGINT",
  async () => {
    const { launcher, url, readyLine } = await startLauncher();
    expect(readyLine).toBe(`Mock ready at ${url}`);
    // The readiness probe is a CORS preflight, which Prism answers without routing: no error logged.
    expect(launcher.output()).not.toMatch(/✖|error|NO_PATH_MATCHED/i);
    const response = await fetch(`${url}/api/v2/channels/conversations`, { headers: token });
    expect(response.status).toBe(200);
    // Ctrl-C under pnpm arrives twice (terminal and pnpm); the second must not kill the launcher mid-stop.
    launcher.child.kill("SIGINT");
    launcher.child.kill("SIGINT");
    const [code, signal] = await launcher.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    // Prism went down with the launcher: nothing listens on the port any more.
    await expect(fetch(`${url}/`)).rejects.toThrow();
  },
  processTestTimeoutMs,
);

it.each([
  { prefer: "code=201", status: 404, hint: [/asks for a status this operation does not document/, /not the API's own 404/] },
  { prefer: "code=200, example=botNotFound", status: 500, hint: [/no example "botNotFound"/, /Prism's 500 problem\+json is about the description/] },
])(
  "prints a hint when Prefer: $prefer asks for what the operation does not document",
  async ({ prefer, status, hint }) => {
    const { launcher, url } = await startLauncher();
    const response = await fetch(`${url}/api/v1/runtime/simple/external/events/5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c`, {
      headers: { ...token, Prefer: prefer },
    });
    expect(response.status).toBe(status);
    const line = await launcher.waitForLine(/^mock hint: /);
    for (const pattern of hint) expect(line).toMatch(pattern);
  },
  processTestTimeoutMs,
);

it(
  "stops quietly on Ctrl-C when run as `pnpm start` (no ELIFECYCLE)",
  async () => {
    running = watch("pnpm", ["run", "start", "--port", "0"], { cwd: packageDir, detached: true });
    expect(await running.waitForLine(/^Mock ready at /)).toMatch(readyOnAnyPort);
    const pid = running.child.pid;
    if (pid === undefined) throw new Error("pnpm did not start");
    // A terminal's Ctrl-C: SIGINT to the whole process group (pnpm, the launcher and Prism).
    process.kill(-pid, "SIGINT");
    const [code, signal] = await running.exited;
    expect({ code, signal, output: running.output() }).toEqual({
      code: 0,
      signal: null,
      output: expect.not.stringMatching(/ELIFECYCLE|ERR_PNPM|Command failed/),
    });
  },
  processTestTimeoutMs,
);
