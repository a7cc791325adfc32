import { execFile } from "node:child_process";
import { chmod, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { checkReadmeExamples, readmeTypeScriptBlocks } from "@bot-conversation/test-support/readme-examples";
import { describe, expect, it } from "vitest";
import { binPath } from "./support/cli.ts";
import { firedEvents, token, useSandbox } from "./support/sandbox.ts";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
// The README's sandbox: generated data, the default token, as `bot-conversation sandbox` serves it.
const sandbox = useSandbox({ tokens: ["sandbox-token", token] });

/** Every ```sh block of the README, in order. */
async function shellBlocks(): Promise<string[]> {
  const readme = await readFile(join(packageDir, "README.md"), "utf8");
  return [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "");
}

describe("README", () => {
  it("every sh block runs as written (bash -euo pipefail, bot-conversation on PATH), against a sandbox in place of 127.0.0.1:4011", async () => {
    const bin = await mkdtemp(join(tmpdir(), "cli-readme-"));
    await writeFile(join(bin, "bot-conversation"), `#!/bin/sh\nexec "${process.execPath}" "${binPath}" "$@"\n`);
    await chmod(join(bin, "bot-conversation"), 0o755);
    const blocks = await shellBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const script = ["set -euo pipefail", ...blocks].join("\n").replaceAll("http://127.0.0.1:4011", sandbox().url);
    const before = (await firedEvents(sandbox())).length;
    const { stdout } = await promisify(execFile)("bash", ["-c", script], {
      cwd: bin,
      env: { PATH: `${bin}:${process.env["PATH"]}`, HOME: bin },
      maxBuffer: 64 * 2 ** 20,
    });
    expect(stdout).toContain("Result: every check that ran held");
    expect(await firedEvents(sandbox())).toHaveLength(before + 1);
    expect(await readFile(join(bin, "closed.csv"), "utf8")).toMatch(/^id,channelId,status,/);
  });

  it("the exit codes table is the one table of every command: each code a row, the kit's the same object", async () => {
    const { exitCodes } = await import("../src/index.ts");
    const kit = await import("@bot-conversation/conformance");
    expect(kit.exitCodes).toBe(exitCodes);
    const readme = await readFile(join(packageDir, "README.md"), "utf8");
    const rows = [...readme.matchAll(/^\| (\d+) \|/gm)].map((match) => Number(match[1]));
    expect(rows).toEqual(Object.values(exitCodes));
  });

  it("every ts example compiles against the built package", async () => {
    expect(await readmeTypeScriptBlocks(join(packageDir, "README.md"))).toHaveLength(2);
    expect((await checkReadmeExamples(packageDir)).filter((example) => example.diagnostics.length > 0)).toEqual([]);
  });
});
