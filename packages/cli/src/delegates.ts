import type { CommandIo } from "./io.js";

/** The conformance kit's command entry (`@bot-conversation/conformance`'s `main`). */
interface ConformancePackage {
  main(argv: readonly string[], io: CommandIo): Promise<number>;
}

/** The sandbox's command entry (`@bot-conversation/sandbox`'s `runSandboxCommand`). */
interface SandboxPackage {
  runSandboxCommand(argv: readonly string[], io: { stdout: NodeJS.WritableStream; env: NodeJS.ProcessEnv }): Promise<unknown>;
}

// Names held in variables: loaded only when used, and typed by the entries above rather than by
// compiling those packages' sources into this one's build.
const conformanceName = "@bot-conversation/conformance";
const sandboxName = "@bot-conversation/sandbox";

/** `bot-conversation check ...`: the conformance kit's own command reads every argument. */
export async function runCheck(argv: readonly string[], io: CommandIo): Promise<number> {
  return ((await import(conformanceName)) as ConformancePackage).main(["check", ...argv], io);
}

/** `bot-conversation sandbox ...`: the sandbox's own command reads the arguments, serves, and stops on Ctrl-C or SIGTERM. */
export async function runSandbox(argv: readonly string[], io: CommandIo): Promise<void> {
  await ((await import(sandboxName)) as SandboxPackage).runSandboxCommand(argv, { stdout: io.stdout, env: io.env });
}
