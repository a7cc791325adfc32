/**
 * What the before-and-after tools of the sandbox (`search-cpu.ts`, `ready-cpu.ts`, `data-hash.ts`) and the sandbox
 * section share: the builds named on their command line, and a start of a build over 100,000 conversations with
 * `--data`, timed to its ready line.
 */
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { type LaunchedSandbox, launchSandbox } from "@bot-conversation/sandbox";
import { cpuSecondsOf } from "./proc.ts";

/** A build of the sandbox's command: its name in the tables, and its `main.js`. */
export interface SandboxBuild {
  readonly name: string;
  readonly main: string;
}

/** The workspace's own build: the one a tool compares when no other is named. */
export const workspaceBuild: SandboxBuild = { name: "sandbox", main: fileURLToPath(new URL("../../packages/sandbox/dist/main.js", import.meta.url)) };

/** A build named on the command line as `<name>=<path of main.js>`; `usage` is what the error says was expected. */
export function buildOf(argument: string, usage = "<name>=<path of main.js>"): SandboxBuild {
  const [name, main] = argument.split("=") as [string, string | undefined];
  if (main === undefined || name === "") throw new Error(`expected ${usage}, got "${argument}"`);
  return { name, main };
}

/** The builds the arguments name (each `<name>=<path of main.js>`), or the workspace's own when they name none. */
export const namedBuilds = (argv: readonly string[]): SandboxBuild[] => (argv.length > 0 ? argv.map((argument) => buildOf(argument)) : [workspaceBuild]);

/** A start of a build: the sandbox, its wall time from spawn to its ready line, and the CPU time it spent meanwhile. */
export interface LargeStart {
  readonly sandbox: LaunchedSandbox;
  readonly wallMs: number;
  readonly cpuSeconds: number;
}

/** Starts a build (this tree's unless `command`) with `conversations` (100,000) over the `--data` file, once it printed its ready line. */
export async function startWithData(data: string, options: { command?: string; conversations?: number } = {}): Promise<LargeStart> {
  const started = performance.now();
  const sandbox = await launchSandbox(["--conversations", String(options.conversations ?? 100_000), "--data", data], {
    ...(options.command === undefined ? {} : { command: options.command }),
    readyWithinMs: 600_000,
  });
  const wallMs = performance.now() - started;
  // Its CPU time (all its threads), read as its ready line is handed over (nothing of the bench runs between the two,
  // and it does nothing past it): what the ready budget reads, as the wall time moves with whatever else the machine runs.
  return { sandbox, wallMs, cpuSeconds: cpuSecondsOf(sandbox.process.pid!).own };
}
