import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

// The command itself: `main.ts` in the workspace, `main.js` once built.
const main = fileURLToPath(new URL(import.meta.url.endsWith(".ts") ? "../main.ts" : "../main.js", import.meta.url));
const readyPrefix = "Sandbox ready at ";

/** The sandbox started as its own process, the way `pnpm start` starts it. */
export interface LaunchedSandbox {
  /** Its base URL, read from the ready line. */
  readonly url: string;
  /** The ready line it printed: `Sandbox ready at http://127.0.0.1:<port>`. */
  readonly readyLine: string;
  /** The process. */
  readonly process: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Sends the signal (SIGTERM by default) and resolves once it has exited, with its exit code and signal. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A start that failed: the process exited (or stayed silent) before its ready line. */
export class LaunchError extends Error {
  override name = "LaunchError";
  /** Its exit code, or `null` when it was still running (and was stopped). */
  readonly code: number | null;
  /** Everything it printed. */
  readonly output: string;

  constructor(message: string, code: number | null, output: string) {
    super(`${message}; output:\n${output}`);
    this.code = code;
    this.output = output;
  }
}

/**
 * Runs `node src/main.ts` with the arguments (`--port 0`, any free port, unless the arguments give
 * one) and resolves when it prints its ready line; rejects with a `LaunchError` if it exits first
 * or is not ready within `readyWithinMs`.
 */
export async function launchSandbox(args: readonly string[], options: { env?: NodeJS.ProcessEnv; readyWithinMs?: number } = {}): Promise<LaunchedSandbox> {
  const child = spawn(process.execPath, [main, "--port", "0", ...args], { env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const [code, exitSignal] = await exited;
    return { code, signal: exitSignal };
  };
  const readyLine = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop("SIGKILL");
      reject(new LaunchError(`no ready line within ${options.readyWithinMs ?? 60_000} ms`, null, output));
    }, options.readyWithinMs ?? 60_000);
    child.stdout.on("data", () => {
      const line = output.split("\n").find((candidate) => candidate.startsWith(readyPrefix));
      if (line === undefined) return;
      clearTimeout(timer);
      resolve(line);
    });
    void exited.then(([code]) => {
      clearTimeout(timer);
      reject(new LaunchError(`exited with ${code} before it was ready`, code, output));
    });
  });
  return { url: readyLine.slice(readyPrefix.length), readyLine, process: child, output: () => output, stop };
}
