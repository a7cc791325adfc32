import { PassThrough } from "node:stream";
import { runCheckCommand } from "../../src/index.ts";

/** What one in-process run of the command printed, and its exit code. */
export interface CommandRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `bot-conversation check <args>` in process, with `env` as its environment (no token from the real one). */
export async function check(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CommandRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const saved = process.env["BOT_CONVERSATION_TOKEN"];
  delete process.env["BOT_CONVERSATION_TOKEN"];
  try {
    const code = await runCheckCommand(["check", ...args], { stdout, stderr, env });
    return { code, stdout: out, stderr: err };
  } finally {
    if (saved !== undefined) process.env["BOT_CONVERSATION_TOKEN"] = saved;
  }
}
