import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";

/** A spawned process whose stdout and stderr are collected, with a way to wait for a line. */
export interface WatchedProcess {
  /** The process. */
  readonly child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr interleaved. */
  output(): string;
  /** Resolves with the first line matching `pattern` (already written or still to come); rejects if the process exits first. */
  waitForLine(pattern: RegExp): Promise<string>;
  /** Resolves with the exit code and signal. */
  readonly exited: Promise<[number | null, NodeJS.Signals | null]>;
}

/** Spawns `command` and collects what it writes; `detached` makes it lead its own process group (for a Ctrl-C to the group). */
export function watch(command: string, args: string[], options: { cwd?: string; detached?: boolean } = {}): WatchedProcess {
  const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  let text = "";
  const listeners = new Set<() => void>();
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      for (const listener of listeners) listener();
    });
  }
  const waitForLine = (pattern: RegExp): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const line = text.split("\n").find((candidate) => pattern.test(candidate));
        if (line === undefined) return;
        listeners.delete(check);
        resolve(line);
      };
      listeners.add(check);
      check();
      void exited.then(([code]) => {
        if (!listeners.has(check)) return;
        listeners.delete(check);
        reject(new Error(`exited (${code}) before writing ${pattern}; output:\n${text}`));
      });
    });
  return { child, output: () => text, waitForLine, exited };
}
