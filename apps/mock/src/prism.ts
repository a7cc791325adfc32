import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { forwardLog } from "./log.ts";
import type { MockOptions } from "./options.ts";
import { waitForHttp } from "./readiness.ts";

/** A running Prism mock. */
export interface RunningMock {
  /** Base URL of the mock, e.g. `http://127.0.0.1:4010`. */
  url: string;
  /** The Prism process. */
  process: ChildProcess;
  /** Stops Prism and resolves once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const require = createRequire(import.meta.url);

/** Where Prism reads the description from: the bundle built by `@bot-conversation/openapi`. */
export const bundlePath = require.resolve("@bot-conversation/openapi/openapi.json");

const prismEntry = require.resolve("@stoplight/prism-cli/dist/index.js");

/**
 * Prism's command line for the given options. The seed is passed in static mode too, because a
 * request may ask for generated data itself (`Prefer: dynamic=true`) and must get the same body every time.
 */
export function prismArguments(options: MockOptions): string[] {
  const args = [prismEntry, "mock", bundlePath, "--host", options.host, "--port", String(options.port), "--cors", "--seed", options.seed];
  if (options.dynamic) args.push("--dynamic");
  return args;
}

/** How long Prism may take to load the description and listen; generous because CI machines are slow. */
const readinessDeadlineMs = 60_000;

/**
 * Spawns Prism and resolves once it answers HTTP. Prism's log goes to `output`: "inherit" copies it
 * to this process's stdout and stderr with hints (see `hints.ts`), "pipe" leaves it on the child's streams.
 * Ready means this Prism said it listens on the URL *and* the URL answers: an answer alone could come
 * from another server that took the port first (then this Prism exits with EADDRINUSE). With port 0
 * Prism binds any free port, and the URL carries the port it bound.
 */
export async function startMock(options: MockOptions, output: "inherit" | "ignore" | "pipe" = "inherit"): Promise<RunningMock> {
  // Prism's stdout is always read here, for its "listening" line; stderr follows `output`.
  const stderr = output === "ignore" ? "ignore" : "pipe";
  // Prism colours its log only on a terminal; keep the colours when this process writes to one.
  const env = output === "inherit" && process.stdout.isTTY ? { ...process.env, FORCE_COLOR: "1" } : process.env;
  const child = spawn(process.execPath, prismArguments(options), { stdio: ["ignore", "pipe", stderr], env });
  if (output === "inherit" && child.stdout && child.stderr) {
    forwardLog(child.stdout, process.stdout);
    forwardLog(child.stderr, process.stderr);
  }
  const origin = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}`;
  // Prism's own line names the port it bound: the one asked for, or the one the OS gave for port 0.
  const listening = new Promise<number>((resolve) => {
    const lines = createInterface({ input: child.stdout!, crlfDelay: Infinity });
    lines.on("line", (line) => {
      const port = listeningPort(line);
      if (port !== undefined) resolve(port);
    });
  });
  // With "ignore", nobody else reads stdout: keep it flowing so Prism never blocks on a full pipe.
  if (output === "ignore") child.stdout!.resume();
  const exited = once(child, "exit");
  const gaveUp = new AbortController();
  // Stop polling as soon as Prism dies (bad description, port taken), instead of waiting for the deadline.
  void exited.then(() => gaveUp.abort(new PrismExitedError(child.exitCode)));
  const stop = async (signal: NodeJS.Signals = "SIGTERM"): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await exited;
  };
  let url = `${origin}:${options.port}`;
  try {
    const deadline = AbortSignal.timeout(readinessDeadlineMs);
    const port = await Promise.race([
      listening,
      exited.then((): never => {
        gaveUp.signal.throwIfAborted();
        throw new PrismExitedError(child.exitCode);
      }),
      once(deadline, "abort").then((): never => {
        throw new Error(`Prism did not say it listens on ${url} within ${readinessDeadlineMs} ms`);
      }),
    ]);
    url = `${origin}:${port}`;
    await waitForHttp(`${url}/`, Date.now() + readinessDeadlineMs, gaveUp.signal);
  } catch (error) {
    await stop();
    throw gaveUp.signal.aborted ? gaveUp.signal.reason : error;
  }
  return { url, process: child, stop };
}

/** Prism ended before it was ready: a bad description, or its port taken. */
export class PrismExitedError extends Error {
  /** Prism's exit code, or null when a signal ended it. */
  readonly exitCode: number | null;
  constructor(exitCode: number | null) {
    super(`Prism exited before it was ready (exit code ${exitCode})`);
    this.name = "PrismExitedError";
    this.exitCode = exitCode;
  }
}

/**
 * Starts Prism on an ephemeral port (for tests and benchmarks): Prism binds port 0 and names the
 * port the OS gave it, so no port is chosen in advance that another process could take first.
 */
export async function startMockOnFreePort(options: Omit<MockOptions, "port">, output: "inherit" | "ignore" | "pipe" = "ignore"): Promise<RunningMock> {
  return startMock({ ...options, port: 0 }, output);
}

/** The port in Prism's `Prism is listening on http://<address>:<port>` line, or undefined for any other line (colours allowed). */
export function listeningPort(line: string): number | undefined {
  const match = /is listening on \S*:(\d+)/.exec(line);
  return match ? Number(match[1]) : undefined;
}
