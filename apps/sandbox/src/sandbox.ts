import { createApp } from "./app.ts";
import type { SandboxContext } from "./context.ts";
import { Faults } from "./faults.ts";
import { checkFixture, readFixture } from "./fixture.ts";
import { generateData } from "./generate.ts";
import { resolveOptions, type SandboxOptions } from "./options.ts";
import { Storage } from "./storage.ts";
import { columnsOf } from "./summary.ts";

/** A running sandbox in process: the same handler the server runs, as a `fetch` function. */
export interface Sandbox {
  /** Answers a request like the server would; give it to a client as its `fetch` (any origin works). */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** Closes the database (and so flushes a `--data` file). */
  close(): Promise<void>;
  /** The options in force, defaults filled in. */
  readonly options: SandboxOptions;
}

/**
 * Starts a sandbox in process, with the same options as the command (`fixture` an object or a file
 * path). With `data`, a database file that already holds data is served as it is; otherwise the
 * fixture, or data generated from `seed` and `conversations`, is loaded first.
 */
export async function createSandbox(given: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  const options = resolveOptions(given);
  const fixture = typeof options.fixture === "string" ? await readFixture(options.fixture) : options.fixture === undefined ? undefined : checkFixture(options.fixture);
  const storage = new Storage(options.data);
  try {
    const context: SandboxContext = {
      storage,
      options,
      faults: new Faults(),
      replaceData(source) {
        const data = "fixture" in source ? source.fixture : generateData(source.seed, source.conversations);
        storage.replaceAll(data.bots, data.conversations, columnsOf);
      },
    };
    if (storage.isEmpty()) context.replaceData(fixture ? { fixture } : { seed: options.seed, conversations: options.conversations });
    const app = createApp(context);
    return {
      options,
      fetch: async (input, init) => app.fetch(input instanceof Request && init === undefined ? input : new Request(input, init)),
      close: async () => storage.close(),
    };
  } catch (error) {
    storage.close();
    throw error;
  }
}

