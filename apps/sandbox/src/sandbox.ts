import { openSandbox, type Sandbox } from "./core.ts";
import { generatedSource } from "./store.ts";
import { DataFileKeeper, readDataFile } from "./data-file.ts";
import { checkFixture } from "./fixture.ts";
import { readFixture } from "./fixture-file.ts";
import { resolveOptions, type SandboxOptions } from "./options.ts";

export type { Sandbox } from "./core.ts";

/**
 * Starts a sandbox in process, with the same options as the command (`fixture` an object or a file
 * path). With `data`, a file that already holds data is served as it is (its source and its fired
 * events); otherwise the fixture, or data generated from `seed`, `conversations` and `state`, is
 * loaded first, and the file keeps it from then on.
 */
export async function createSandbox(given: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  const options = resolveOptions(given);
  const fixture = typeof options.fixture === "string" ? await readFixture(options.fixture) : options.fixture === undefined ? undefined : checkFixture(options.fixture);
  const kept = options.data === undefined ? undefined : readDataFile(options.data);
  const keeper = options.data === undefined ? undefined : new DataFileKeeper(options.data);
  const source = kept?.source ?? (fixture ? { fixture } : generatedSource(options, {}));
  if (keeper && !kept) keeper.replaced(source);
  // Between chunks of a reset's load, the event loop answers other requests (a macrotask: I/O runs).
  return openSandbox(options, { source, events: kept?.events ?? [], keeper, pause: () => new Promise((resolve) => setImmediate(resolve)) });
}
