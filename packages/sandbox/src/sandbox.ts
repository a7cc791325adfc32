import { openSandbox, type Sandbox } from "./core.ts";
import { checkFixture } from "./data/fixture.ts";
import { readFixture } from "./data/fixture-file.ts";
import { generatedSource } from "./data/source.ts";
import type { DataSource } from "./model.ts";
import type { SandboxLogger } from "./observe/log.ts";
import { newObserver, observeSandbox } from "./observe/observe.ts";
import { resolveOptions, type SandboxOptions } from "./options.ts";

export type { Sandbox } from "./core.ts";

/**
 * Starts a sandbox in process, with the same options as the command (`fixture` an object or a file
 * path). With `data`, a file that already holds data is served as it is (its source and its fired
 * events); otherwise the fixture, or data generated from `seed`, `conversations` and `state`, is
 * loaded first, and the file keeps it from then on (a SQLite database, held by this sandbox alone).
 * With `databaseUrl`, the sandbox is a replica of a shared sandbox on PostgreSQL: the data options are
 * those of the default workspace when it is first created, and `adminToken` manages the others.
 * Quiet unless given a `logger` (a pino logger, as the command's `--log-format` makes); its metrics
 * (`GET /_sandbox/metrics`) are its own whatever the mode.
 */
export async function createSandbox(given: Partial<SandboxOptions> & { readonly logger?: SandboxLogger | undefined } = {}): Promise<Sandbox> {
  const { logger, ...rest } = given;
  const options = resolveOptions(rest);
  const observer = newObserver(logger);
  const fixture =
    typeof options.fixture === "string" ? await readFixture(options.fixture) : options.fixture === undefined ? undefined : checkFixture(options.fixture);
  const initial = (): DataSource => (fixture ? { fixture } : generatedSource(options, {}));
  // pg is loaded only for a database: the rest of the sandbox (and its browser build) runs without it.
  if (options.databaseUrl !== undefined) return observeSandbox(await (await import("./shared.ts")).openSharedSandbox(options, initial, observer), observer);
  // node:sqlite is loaded only for --data: the rest of the sandbox (and its browser build) runs without it.
  const file = options.data === undefined ? undefined : (await import("./data/data-file.ts")).openDataFile(options.data, initial);
  // Between chunks of a reset's load, the event loop answers other requests (a macrotask: I/O runs).
  const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
  try {
    return observeSandbox(await openSandbox(options, { source: file?.source ?? initial(), kept: file?.kept, pause }), observer);
  } catch (error) {
    file?.kept.close();
    throw error;
  }
}
