import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startSandboxServer } from "@bot-conversation/sandbox";
import { expect, test } from "vitest";

const run = promisify(execFile);
const cli = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const lines = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((match) => match[1]!.split("\n")).map((line) => line.replace(/\s+#.*$/, "").trim()).filter(Boolean);

test("the README's commands run as written (the sandbox in process in place of the background one, on a free port)", async () => {
  expect(lines.filter((line) => line.startsWith("npx bot-conversation sandbox"))).toHaveLength(1);
  const sandbox = await startSandboxServer({ host: "127.0.0.1", port: 0, conversations: 20 });
  try {
    for (const line of lines.filter((candidate) => !candidate.startsWith("npx bot-conversation sandbox"))) {
      const args = line.replace(/^npx bot-conversation/, "").replaceAll("http://127.0.0.1:4011", sandbox.url).trim().split(/\s+/);
      const { stdout } = await run(process.execPath, [cli, ...args]);
      expect(stdout, line).not.toBe("");
    }
  } finally {
    await sandbox.stop();
  }
});

test("the exit codes table lists the kit's own codes", async () => {
  const { exitCodes } = await import("@bot-conversation/conformance");
  for (const code of Object.values(exitCodes)) expect(readme).toContain(`| ${code} |`);
});
