/**
 * What a change re-runs: the task hashes of `turbo run build test --dry=json`, before and after a new
 * file appears in a folder, in a copy of the workspace's files (the working tree is never touched).
 * The root README's Tasks section lists the same sets.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaceRoot } from "../src/major-guard.ts";

const run = promisify(execFile);
const turbo = join(workspaceRoot, "node_modules", ".bin", "turbo");
let copy: string;

/**
 * Each real build and test task's hash (tasks without a script are left out), as turbo would compute it in
 * the copy. A test waits for its package's typecheck too (the CI's typecheck step, replayed from turbo's
 * cache), which re-runs with its package's build: the sets below are the builds and tests.
 */
async function taskHashes(): Promise<Map<string, string>> {
  const { stdout } = await run(turbo, ["run", "build", "test", "--dry=json"], { cwd: copy, maxBuffer: 64 * 1024 * 1024 });
  const { tasks } = JSON.parse(stdout) as { tasks: { taskId: string; task: string; hash: string; command: string }[] };
  return new Map(
    tasks.filter((task) => task.command !== "<NONEXISTENT>" && (task.task === "build" || task.task === "test")).map((task) => [task.taskId, task.hash]),
  );
}

/** The tasks whose hash changes when a file is added under `folder`. */
async function rerunBy(folder: string): Promise<string[]> {
  const before = await taskHashes();
  const probe = join(copy, folder, "turbo-probe.txt");
  writeFileSync(probe, "a change\n");
  const after = await taskHashes();
  rmSync(probe);
  return [...before]
    .filter(([task, hash]) => after.get(task) !== hash)
    .map(([task]) => task)
    .sort();
}

const tasksOf = (...names: string[]) => names.flatMap((name) => [`@bot-conversation/${name}#build`, `@bot-conversation/${name}#test`]);

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), "turbo-reruns-"));
  const { stdout } = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: workspaceRoot, maxBuffer: 64 * 1024 * 1024 });
  for (const file of stdout.split("\0").filter(Boolean)) {
    mkdirSync(join(copy, dirname(file)), { recursive: true });
    cpSync(join(workspaceRoot, file), join(copy, file), { errorOnExist: false });
  }
  await run("git", ["init", "-q"], { cwd: copy });
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe("turbo re-runs only what a change reaches", () => {
  it("a change under openapi/components re-runs every task of the description and of each package built on it: all but the test helpers' own test (the browser resolver), which nothing of the description reaches", async () => {
    const everyTask = [...(await taskHashes()).keys()].sort();
    expect(everyTask).toContain("@bot-conversation/test-support#test");
    expect(await rerunBy("openapi/components/schemas")).toEqual(everyTask.filter((task) => task !== "@bot-conversation/test-support#test"));
  });

  // The description's test reads every package's and app's src (one Ajv, one reader, one redactor: openapi/test/one-core.test.ts).
  it("a change under packages/client re-runs the client's tasks and its dependants' only, and the description's test", async () => {
    expect(await rerunBy("packages/client/src")).toEqual(
      [
        ...tasksOf("client", "query", "example-inbox", "sandbox", "conformance", "cli", "docs"),
        "@bot-conversation/release#test",
        "@bot-conversation/mock#test",
        "@bot-conversation/openapi#test",
      ].sort(),
    );
  });

  it("a change under apps/docs re-runs the reference's own tasks, the mock's test, which serves it through pnpm start, and the description's test", async () => {
    expect(await rerunBy("apps/docs/src")).toEqual([...tasksOf("docs"), "@bot-conversation/mock#test", "@bot-conversation/openapi#test"].sort());
  });
});
