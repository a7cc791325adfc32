import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";

// The command itself: `main.ts` in the workspace, `main.js` once built.
const main = fileURLToPath(new URL(import.meta.url.endsWith(".ts") ? "../main.ts" : "../main.js", import.meta.url));
const readyPrefix = "Sandbox ready at ";
/**
 * How much of what the process prints is kept (our choice): its last 1 MiB. A sandbox under load prints a
 * log line per request, for as long as it runs; keeping all of it would grow without end.
 */
const keptOutputBytes = 1024 * 1024;

/** The sandbox started as its own process, the way `pnpm start` starts it. */
export interface LaunchedSandbox {
  /** Its base URL, read from the ready line. */
  readonly url: string;
  /** The ready line it printed: `Sandbox ready at http://127.0.0.1:<port>`. */
  readonly readyLine: string;
  /** The process. */
  readonly process: ChildProcess;
  /**
   * What it printed so far, stdout and stderr: all of it, or once that passes 1 MiB, its last 1 MiB after
   * a line saying how much was left out.
   */
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

/** The last `limit` bytes of a stream of chunks, and how many bytes came before them. */
class OutputTail {
  #chunks: Buffer[] = [];
  #kept = 0;
  #dropped = 0;
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  add(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#kept += chunk.byteLength;
    while (this.#kept > this.#limit) {
      const first = this.#chunks[0]!;
      const over = this.#kept - this.#limit;
      if (first.byteLength <= over) {
        this.#chunks.shift();
        this.#kept -= first.byteLength;
        this.#dropped += first.byteLength;
      } else {
        this.#chunks[0] = first.subarray(over);
        this.#kept -= over;
        this.#dropped += over;
      }
    }
  }

  text(): string {
    const kept = Buffer.concat(this.#chunks).toString();
    return this.#dropped === 0 ? kept : `[${this.#dropped} earlier bytes left out]\n${kept}`;
  }
}

/** How `launchSandbox` starts the command. */
export interface LaunchOptions {
  /** Variables added to the process's environment. */
  env?: NodeJS.ProcessEnv;
  /** How long to wait for the ready line, ms (60,000 by default). */
  readyWithinMs?: number;
  /**
   * The script to run with this Node.js: this package's own command by default; another build's `dist/bin.js`
   * (an earlier commit's tree built beside this one, as the bench's before-and-after comparison starts it).
   */
  command?: string;
}

/**
 * Runs `node src/main.ts` with the arguments (`--port 0`, any free port, unless the arguments give
 * one) and resolves when it prints its ready line; rejects with a `LaunchError` if it exits first
 * or is not ready within `readyWithinMs`. Its output is read as it comes (the process never waits on a
 * full pipe) and kept bounded (see `output()`).
 */
export async function launchSandbox(args: readonly string[], options: LaunchOptions = {}): Promise<LaunchedSandbox> {
  const command = options.command ?? main;
  if (options.command !== undefined && !statSync(command, { throwIfNoEntry: false })?.isFile())
    throw new Error(`launchSandbox: the command ${command} is not a file (expected a built sandbox's dist/bin.js or dist/main.js)`);
  const child = spawn(process.execPath, [command, "--port", "0", ...args], { env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
  const output = new OutputTail(keptOutputBytes);
  child.stdout.on("data", (chunk: Buffer) => output.add(chunk));
  child.stderr.on("data", (chunk: Buffer) => output.add(chunk));
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const [code, exitSignal] = await exited;
    return { code, signal: exitSignal };
  };
  const readyLine = await new Promise<string>((resolve, reject) => {
    // Stdout's lines until the ready line, read once each; the listener goes once it is found.
    let partial = "";
    const findReady = (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop()!;
      const line = lines.find((candidate) => candidate.startsWith(readyPrefix));
      if (line === undefined) return;
      child.stdout.off("data", findReady);
      clearTimeout(timer);
      resolve(line.replace(/\r$/, ""));
    };
    const timer = setTimeout(() => {
      child.stdout.off("data", findReady);
      void stop("SIGKILL");
      reject(new LaunchError(`no ready line within ${options.readyWithinMs ?? 60_000} ms`, null, output.text()));
    }, options.readyWithinMs ?? 60_000);
    child.stdout.on("data", findReady);
    void exited.then(([code]) => {
      clearTimeout(timer);
      reject(new LaunchError(`exited with ${code} before it was ready`, code, output.text()));
    });
  });
  return { url: readyLine.slice(readyPrefix.length), readyLine, process: child, output: () => output.text(), stop };
}
