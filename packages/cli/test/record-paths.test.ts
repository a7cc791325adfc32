import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { ConversationPage } from "@bot-conversation/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRecorder } from "../src/record/recorder.ts";
import { realBot, realToken, startRealService } from "./support/real-service.ts";

/** The workspace's root, where `pnpm bot-conversation` is a script. */
const root = fileURLToPath(new URL("../../..", import.meta.url));

/** `pnpm --dir <root> bot-conversation <args>` run from `cwd`, as a user in a recording's folder types `pnpm bot-conversation …` inside the repository. */
const viaPnpm = (cwd: string, args: readonly string[]) =>
  promisify(execFile)("pnpm", ["--silent", "--dir", root, "bot-conversation", ...args], { cwd })
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }))
    .catch((error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }));

let service: Awaited<ReturnType<typeof startRealService>>;
let user: string;
beforeAll(async () => {
  service = await startRealService();
  user = await mkdtemp(join(tmpdir(), "record-paths-"));
  const recorder = await startRecorder({ upstream: service.url, out: join(user, "rec"), salt: "s" });
  await (await fetch(`${recorder.url}/api/v2/channels/conversations?agentStageId=${realBot}&pageSize=5`, { headers: { "X-Token": realToken } })).arrayBuffer();
  await recorder.stop();
});
afterAll(async () => {
  await service.close();
});

describe("record and sandbox: relative paths are the user's, through pnpm too", () => {
  it("record --rebuild --out rec rewrites the folder the user ran the command in", async () => {
    const result = await viaPnpm(user, ["record", "--rebuild", "--out", "rec"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Rebuilt 1 exchange into ${join(user, "rec")}`);
    expect((await readdir(root)).includes("rec")).toBe(false);
  });

  it("a missing --fixture is one line naming the flag and where it was looked for", async () => {
    const result = await viaPnpm(user, ["sandbox", "--fixture", "rec/missing.json", "--port", "0"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: --fixture: no such file "rec/missing.json" (looked for ${join(user, "rec/missing.json")}, relative to the folder the command was run in)\n`,
    );
  });

  it("sandbox --fixture rec/fixture.json serves the recording", async () => {
    const child = spawn("pnpm", ["--silent", "--dir", root, "bot-conversation", "sandbox", "--fixture", "rec/fixture.json", "--port", "0"], {
      cwd: user,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = once(child, "exit");
    try {
      let output = "";
      let errors = "";
      child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const found = /Sandbox ready at (\S+)/.exec(output)?.[1];
          if (found) resolve(found);
        });
        void exited.then(() => reject(new Error(`the sandbox exited: ${errors}`)));
      });
      const page = (await (
        await fetch(`${url}/api/v2/channels/conversations?agentStageId=${realBot}&pageSize=10`, { headers: { "X-Token": "sandbox-token" } })
      ).json()) as ConversationPage;
      expect(page.totalItemCount).toBe(5);
    } finally {
      process.kill(-child.pid!, "SIGTERM");
      await exited;
    }
  });
});
