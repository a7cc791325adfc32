import type { CommandIo } from "./io.js";

// Loaded only when used: the other commands start without the kit or the sandbox.

/** `bot-conversation check ...`: the conformance kit's own command reads every argument. */
export async function runCheck(argv: readonly string[], io: CommandIo): Promise<number> {
  const { runCheckCommand } = await import("@bot-conversation/conformance");
  return runCheckCommand(["check", ...argv], io);
}

/** `bot-conversation sandbox ...`: the sandbox's own command reads the arguments, serves, and stops on Ctrl-C or SIGTERM. */
export async function runSandbox(argv: readonly string[], io: CommandIo): Promise<number> {
  const { runSandboxCommand } = await import("@bot-conversation/sandbox");
  return runSandboxCommand(argv, io.env, "bot-conversation sandbox");
}
