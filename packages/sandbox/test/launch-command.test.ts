import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { launchSandbox } from "../src/index.ts";

// The command of this tree's source stands for another build's dist/bin.js: a real process of the sandbox's own bin.
const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url));

test("launchSandbox starts the command it is given, and that command answers", async () => {
  const sandbox = await launchSandbox(["--conversations", "3"], { command: bin });
  try {
    const commandLine = readFileSync(`/proc/${sandbox.process.pid}/cmdline`, "utf8").split("\0");
    expect(commandLine[1]).toBe(bin);
    const response = await fetch(`${sandbox.url}/api/v2/channels/conversations`, { headers: { "x-token": "sandbox-token" } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { totalItemCount: number }).totalItemCount).toBe(3);
  } finally {
    await sandbox.stop();
  }
});

test("a command that is not a file is refused before anything starts, naming the path", async () => {
  await expect(launchSandbox([], { command: "/nonexistent/dist/bin.js" })).rejects.toThrow(
    "launchSandbox: the command /nonexistent/dist/bin.js is not a file (expected a built sandbox's dist/bin.js or dist/main.js)",
  );
});
