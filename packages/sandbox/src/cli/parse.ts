import { CommanderError } from "commander";
import type { ServerOptions } from "../options.ts";
import { serverOptionsOf } from "./args.ts";
import { newSandboxCommand } from "./command.ts";

/**
 * Reads a command line (`argv` without the command's name) with the `sandbox` command's own options
 * (`newSandboxCommand`, its action left out): the server options, or a `TypeError` naming the first
 * bad flag (an unknown one too, in commander's words).
 */
export function parseServerOptions(argv: readonly string[], env: NodeJS.ProcessEnv): ServerOptions {
  const silent = { write: () => true } as unknown as NodeJS.WritableStream;
  const command = newSandboxCommand({ stdout: silent, stderr: silent, env }, () => undefined)
    .action(() => undefined)
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  try {
    command.parse(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) throw new TypeError(error.message.replace(/^error: /, ""));
    throw error;
  }
  return serverOptionsOf(command.opts(), env);
}
