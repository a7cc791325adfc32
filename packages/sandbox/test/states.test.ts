import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { createSandbox } from "../src/index.ts";
import { largeConversations } from "../src/model.ts";

const headers = { "x-token": "sandbox-token" };
const total = async (fetcher: (url: string, init: RequestInit) => Promise<Response>, base: string) =>
  ((await (await fetcher(`${base}/api/v2/channels/conversations?pageSize=1`, { headers })).json()) as { totalItemCount: number }).totalItemCount;

/** Starts the `bot-conversation-sandbox` bin itself (`src/bin.ts`, the Node check first) and resolves to its URL once ready. */
async function startBin(args: string[]) {
  const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url));
  const child = spawn(process.execPath, [bin, "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, "exit");
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Sandbox ready at (\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error(`exited before it was ready:\n${output}`)));
  });
  return { url, stop: async () => (child.kill("SIGTERM"), await exited) };
}

describe("--state large and --state empty start from every entry point (issue 29, point 6)", { timeout: 120_000 }, () => {
  test.each([
    ["large", largeConversations],
    ["empty", 0],
  ] as const)("bot-conversation-sandbox --state %s serves %i conversations", async (state, count) => {
    const running = await startBin(["--state", state]);
    try {
      expect(await total(fetch, running.url)).toBe(count);
    } finally {
      expect(await running.stop()).toEqual([0, null]);
    }
  });

  test.each([
    ["large", largeConversations],
    ["empty", 0],
  ] as const)("createSandbox({ state: %j }) serves %i conversations, and says so in its options", async (state, count) => {
    const sandbox = await createSandbox({ state });
    try {
      expect(await total(sandbox.fetch, "http://sandbox.test")).toBe(count);
      expect(sandbox.options.conversations).toBe(count);
    } finally {
      await sandbox.close();
    }
  });

  test("a count that disagrees with the state is still refused, naming both", async () => {
    await expect(createSandbox({ state: "large", conversations: 5 })).rejects.toThrow(
      'conversations: must not be sent with the state "large", which sets the number of conversations itself (10000)',
    );
  });
});
