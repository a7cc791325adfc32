/** `bot-conversation workspaces` against the hostile server of test-support: every read bounded, nothing secret printed, every wrong answer one line. */

import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandboxServer } from "@bot-conversation/sandbox";
import {
  type HostileMode,
  type HostileOptions,
  type HostileServer,
  hostileText,
  startHostileServer,
  workspaceName,
} from "@bot-conversation/test-support/hostile-server";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "./support/cli.ts";
import { fixture } from "./support/fixture.ts";

const adminToken = "admin-SECRET-hostile-4711";
const servers: HostileServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function hostile(mode: HostileMode, options: HostileOptions = {}): Promise<{ server: HostileServer; env: NodeJS.ProcessEnv }> {
  const server = await startHostileServer(mode, options);
  servers.push(server);
  return { server, env: { BOT_CONVERSATION_BASE_URL: server.url, SANDBOX_ADMIN_TOKEN: adminToken } };
}

/** Characters that act on a terminal: none may reach a person's output raw. */
const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe("workspaces create --fixture", () => {
  it("a file over the sandbox's fixture limit is refused by its size before it is read: one line naming the flag, the size and the limit, exit 2, nothing sent", async () => {
    const { server, env } = await hostile("control");
    const folder = mkdtempSync(join(tmpdir(), "cli-workspaces-fixture-"));
    try {
      const path = join(folder, "huge.json");
      writeFileSync(path, "");
      // Sparse: no disk is used; read, it would be 700 MiB of NUL bytes (refused as JSON, after the reading).
      truncateSync(path, 700 * 1024 * 1024);
      const run = await runCli(["workspaces", "create", "big", "--fixture", path], env);
      expect(run).toEqual({
        code: 2,
        stdout: "",
        stderr: `error: --fixture: ${path} is 700 MiB (734003200 bytes), larger than a fixture may be (at most 256 MiB, the sandbox's limit, as for PUT /_sandbox/fixture)\n`,
      });
      expect(server.requests).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("workspaces create --fixture, a fixture's keys as data", () => {
  it("a __proto__ key inside a conversation's apps reaches the workspace as an own key, and its export holds it", async () => {
    const sandbox = await startSandboxServer({ host: "127.0.0.1", port: 0, adminToken });
    const folder = mkdtempSync(join(tmpdir(), "cli-workspaces-fixture-keys-"));
    try {
      const conversation = fixture.conversations.find((entry) => entry.conversation.channelData?.platform)!.conversation;
      const apps = '{"__proto__":{"polluted":"yes"},"crm":{"ticket":"T-1"}}';
      const text = JSON.stringify(fixture).replace(/"apps":(null|\{\})/, `"apps":${apps}`);
      expect(text).toContain(apps);
      const path = join(folder, "fixture.json");
      writeFileSync(path, text);
      const run = await runCli(["workspaces", "create", "keys", "--fixture", path, "--output", "json"], {
        BOT_CONVERSATION_BASE_URL: sandbox.url,
        SANDBOX_ADMIN_TOKEN: adminToken,
      });
      expect(run).toMatchObject({ code: 0, stderr: "" });
      const [{ token }] = JSON.parse(run.stdout) as [{ token: string }];
      const exported = await fetch(`${sandbox.url}/_sandbox/conversations/${conversation.id}/export`, { headers: { "x-token": token } });
      const { channelData } = (await exported.json()) as { channelData: { platform: { session: { apps: Record<string, unknown> } } } };
      expect(Object.keys(channelData.platform.session.apps)).toEqual(["__proto__", "crm"]);
      expect(Object.getOwnPropertyDescriptor(channelData.platform.session.apps, "__proto__")?.value).toEqual({ polluted: "yes" });
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await sandbox.stop();
    }
  });
});

describe("workspaces reads through the client's transport", () => {
  it("a body that never ends stops at the command's 1 MiB bound: one line, exit 1, the rest never read", async () => {
    const { server, env } = await hostile("endless-body");
    const run = await runCli(["workspaces", "list"], env);
    expect(run).toEqual({ code: 1, stdout: "", stderr: "error: GET /_sandbox/workspaces answered 200, its body over maxResponseBytes (1048576 bytes)\n" });
    // The reader went away: the server wrote far less than its 2 GiB.
    expect(server.written()).toBeLessThan(256 * 1024 ** 2);
  });

  it("a body that never comes stops at the transport's time-out (--timeout), exit 1", async () => {
    const { env } = await hostile("stall");
    const run = await runCli(["workspaces", "list", "--timeout", "300"], env);
    expect(run).toEqual({ code: 1, stdout: "", stderr: "error: GET request timed out after 300 ms\n" });
    expect(await runCli(["workspaces", "list", "--timeout", "soon"], env)).toMatchObject({
      code: 2,
      stderr: 'error: --timeout: expected a whole number of milliseconds; got "soon"\n',
    });
    expect(await runCli(["workspaces", "list", "--timeout", "0"], env)).toMatchObject({
      code: 2,
      stderr: "error: --timeout: expected a whole number from 1 to 2147483647; got 0\n",
    });
  });

  it("a redirect is not followed: the administrator token stays with the given origin", async () => {
    const target = await hostile("control");
    const { env } = await hostile("redirect", { redirectTarget: target.server.url });
    const run = await runCli(["workspaces", "list"], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("error: GET /_sandbox/workspaces answered 302: a redirect, not followed\n");
    expect(target.server.requests).toEqual([]);
  });
});

describe("nothing secret or raw is printed", () => {
  it("--base-url with a user name and password is refused without quoting it, nothing sent (exit 2), the same rule as search", async () => {
    const { server } = await hostile("many-workspaces");
    const withCredentials = server.url.replace("http://", "http://alice:hunter2secret@");
    for (const argv of [
      ["workspaces", "list", "--base-url", withCredentials],
      ["workspaces", "create", "mobile", "--base-url", withCredentials],
      ["workspaces", "delete", "mobile", "--base-url", withCredentials],
      ["search", "--base-url", withCredentials],
    ]) {
      const run = await runCli(argv, { SANDBOX_ADMIN_TOKEN: adminToken, BOT_CONVERSATION_TOKEN: "service-token" });
      expect(run, argv.join(" ")).toEqual({
        code: 2,
        stdout: "",
        stderr: "error: --base-url: expected an http(s) URL, no credentials, query or fragment; got string\n",
      });
    }
    expect(server.requests).toEqual([]);
  });

  it("the administrator token echoed in a refusal is redacted; a refusal's control sequences are shown as escapes", async () => {
    const echo = await hostile("echo-token");
    const echoed = await runCli(["workspaces", "create", "mobile"], echo.env);
    expect(echoed.code).toBe(1);
    expect(echoed.stderr).toBe('error: POST /_sandbox/workspaces answered 400: "token [redacted]"\n');
    expect(echo.server.requests[0]?.headers["x-token"]).toBe(adminToken);
    const control = await hostile("control");
    const shown = await runCli(["workspaces", "delete", "mobile"], control.env);
    expect(shown.code).toBe(1);
    expect(shown.stderr).not.toMatch(raw);
    expect(shown.stderr).toContain('answered 400: "hi\\u001b[2Jx');
    expect(shown.stderr.split("\n")).toHaveLength(2);
  });
});

describe("a list answered with anything but a list of workspaces is one error line, exit 1", () => {
  it.each([
    [{ workspaces: [] }, 'expected a list of workspaces; got {"workspaces":[]}'],
    [null, "expected a list of workspaces; got null"],
    [[1, 2, 3], "[0]: expected a workspace, an object with the strings name and createdAt; got 1"],
    [[{ name: "a" }], '[0]: expected a workspace, an object with the strings name and createdAt; got {"name":"a"}'],
  ])("%j", async (json, problem) => {
    const { env } = await hostile("unexpected-json", { json });
    for (const output of ["ndjson", "table"]) {
      const run = await runCli(["workspaces", "list", "--output", output], env);
      expect(run).toEqual({ code: 1, stdout: "", stderr: `error: GET /_sandbox/workspaces answered 200 but ${problem}\n` });
    }
  });

  it("a created workspace answered with anything but an object is one error line, exit 1", async () => {
    const { env } = await hostile("unexpected-json", { json: [1, 2, 3] });
    const run = await runCli(["workspaces", "create", "mobile"], env);
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: POST /_sandbox/workspaces answered 200 but expected the created workspace, an object; got [1,2,3]\n",
    });
  });
});

describe("the list is walked page by page", () => {
  it("20,001 workspaces: every one listed once, in order, 21 pages of at most 1,000", async () => {
    const { server, env } = await hostile("many-workspaces");
    const run = await runCli(["workspaces", "list", "--output", "ndjson"], env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const names = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as { name: string }).name);
    expect(names).toHaveLength(20_001);
    expect(names).toEqual(Array.from({ length: 20_001 }, (_, index) => workspaceName(index)));
    expect(server.requests).toHaveLength(21);
    expect(server.requests[0]?.url).toBe("/_sandbox/workspaces?limit=1000");
    expect(server.requests[1]?.url).toBe(`/_sandbox/workspaces?limit=1000&cursor=${workspaceName(999)}`);
  });

  it("a cursor that does not move the list on ends it with one error line, not a loop", async () => {
    // A page of one workspace naming itself as the next cursor for ever.
    const { server, env } = await hostile("unexpected-json", {
      json: [{ name: "w", createdAt: "2026-11-20T09:00:00.000Z" }],
      headers: { "x-next-cursor": "w" },
    });
    const run = await runCli(["workspaces", "list", "--output", "ndjson"], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('error: GET /_sandbox/workspaces: X-Next-Cursor "w" after 1 workspaces would not move the list on\n');
    expect(server.requests).toHaveLength(2);
  });
});

describe("names are checked by the sandbox's rule before anything is sent", () => {
  it.each([["create"], ["delete"]])("%s Mobile_X: exit 2, nothing sent", async (verb) => {
    const { server, env } = await hostile("many-workspaces");
    const run = await runCli(["workspaces", verb, "Mobile_X"], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'error: <name>: expected a value that must match pattern "^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$"; got "Mobile_X" (a workspace name: lower-case letters, digits and dashes, starting and ending with a letter or digit); nothing was sent\n',
    );
    expect(server.requests).toEqual([]);
  });

  it("a name of the control sequences is refused shown as escapes", async () => {
    const { server, env } = await hostile("many-workspaces");
    const run = await runCli(["workspaces", "create", hostileText], env);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(raw);
    expect(server.requests).toEqual([]);
  });
});

describe("help", () => {
  it.each([
    ["create", ["--seed", "--conversations", "--state", "--fixture", "--page-base", "--base-url", "--admin-token-file", "--timeout", "--output"]],
    ["list", ["--base-url", "--admin-token-file", "--timeout", "--output"]],
    ["delete", ["--base-url", "--admin-token-file", "--timeout", "--output"]],
  ])("workspaces %s --help lists its flags and an example", async (verb, flags) => {
    const run = await runCli(["workspaces", verb, "--help"]);
    expect(run.code).toBe(0);
    for (const flag of flags) expect(run.stdout).toContain(flag);
    expect(run.stdout).toContain(`bot-conversation workspaces ${verb}`);
  });
});
