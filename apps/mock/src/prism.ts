import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
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
 */
export async function startMock(options: MockOptions, output: "inherit" | "ignore" | "pipe" = "inherit"): Promise<RunningMock> {
  const stdio = output === "ignore" ? "ignore" : "pipe";
  // Prism colours its log only on a terminal; keep the colours when this process writes to one.
  const env = output === "inherit" && process.stdout.isTTY ? { ...process.env, FORCE_COLOR: "1" } : process.env;
  const child = spawn(process.execPath, prismArguments(options), { stdio: ["ignore", stdio, stdio], env });
  if (output === "inherit" && child.stdout && child.stderr) {
    forwardLog(child.stdout, process.stdout);
    forwardLog(child.stderr, process.stderr);
  }
  const url = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${options.port}`;
  const exited = once(child, "exit");
  const gaveUp = new AbortController();
  // Stop polling as soon as Prism dies (bad description, port taken), instead of waiting for the deadline.
  void exited.then(() => gaveUp.abort(new Error(`Prism exited before it was ready (exit code ${child.exitCode})`)));
  const stop = async (signal: NodeJS.Signals = "SIGTERM"): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await exited;
  };
  try {
    await waitForHttp(`${url}/`, Date.now() + readinessDeadlineMs, gaveUp.signal);
  } catch (error) {
    await stop();
    throw gaveUp.signal.aborted ? gaveUp.signal.reason : error;
  }
  return { url, process: child, stop };
}
