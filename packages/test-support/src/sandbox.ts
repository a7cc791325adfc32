/**
 * The real sandbox served over HTTP for a test: on 127.0.0.1, port 0, with the caller's options, its URL,
 * the token it accepts, the sandbox, and a stop that runs once however often it is called.
 *
 * The sandbox's `startSandboxServer` is passed in, never imported: the sandbox's own tests use
 * test-support, so test-support depending on the sandbox (even as an optional peer) would make a package
 * cycle in pnpm's and turbo's graphs. Passed in, it also lets a caller choose which sandbox it tests (the
 * built package, or its source by path as the client's tests do, the client being below the sandbox).
 */
import { afterAll, beforeAll } from "vitest";

/** The token the sandbox accepts when not given `tokens` (the sandbox's default). */
export const defaultSandboxToken = "sandbox-token";

/** What the fixture needs of a started sandbox server (the sandbox's `RunningSandbox` is one). */
export interface SandboxServerLike {
  /** Base URL, e.g. `http://127.0.0.1:4011`. */
  readonly url: string;
  /** Stops the server and closes the sandbox. */
  stop(): Promise<void>;
}

/** The options of `startSandboxServer` the fixture sets itself (the address) or reads (the tokens). */
interface AddressOptions {
  readonly host: string;
  readonly port: number;
  readonly tokens?: readonly string[] | undefined;
}

/** A sandbox server started for a test: the running server, the token it accepts, and a stop that runs once. */
export type TestSandboxServer<Running extends SandboxServerLike> = Running & {
  /** The first token the sandbox accepts: `options.tokens[0]`, or the sandbox's default. */
  readonly token: string;
};

/**
 * Starts `start` (the sandbox's `startSandboxServer`) on 127.0.0.1, port 0, with `options`; the caller
 * stops it (`stop` may be called again: a second call waits for the first).
 */
export async function startTestSandboxServer<Options extends AddressOptions, Running extends SandboxServerLike>(
  start: (options: Options) => Promise<Running>,
  options: NoInfer<Omit<Options, "host" | "port">>,
): Promise<TestSandboxServer<Running>> {
  const running = await start({ ...options, host: "127.0.0.1", port: 0 } as Options);
  const stopServer = running.stop.bind(running);
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= stopServer();
    return stopped;
  };
  return Object.assign(running, { token: options.tokens?.[0] ?? defaultSandboxToken, stop });
}

/**
 * Starts the sandbox server before the calling file's (or `describe`'s) tests and stops it after them,
 * whether they passed or not; the getter returns it, and throws if the start failed.
 */
export function useSandboxServer<Options extends AddressOptions, Running extends SandboxServerLike>(
  start: (options: Options) => Promise<Running>,
  options: NoInfer<Omit<Options, "host" | "port">>,
): () => TestSandboxServer<Running> {
  let running: TestSandboxServer<Running> | undefined;
  beforeAll(async () => {
    running = await startTestSandboxServer(start, options);
  });
  afterAll(async () => {
    await running?.stop();
  });
  return () => {
    if (!running) throw new Error("the sandbox server is not running");
    return running;
  };
}
