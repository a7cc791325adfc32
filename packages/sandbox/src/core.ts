import { createApp, type AppEnv } from "./http/app.ts";
import type { SandboxContext } from "./http/context.ts";
import { Faults, type Fault } from "./http/faults.ts";
import { allFiredEvents, keptInMemory, type FiredEventRecord, type FiredEventsFilter, type KeptState } from "./data/fired-events.ts";
import { RequestJournal, type RequestFilter, type RequestRecord } from "./http/journal.ts";
import type { SandboxOptions } from "./options.ts";
import { stateConflict } from "./options.ts";
import { dataOf, generatedSource } from "./data/source.ts";
import { Store } from "./engine/store.ts";
import type { DataSource, SandboxState } from "./model.ts";

/** A running sandbox in process: the same handler the server runs, as a `fetch` function. */
export interface Sandbox {
  /** Answers a request like the server would; give it to a client as its `fetch` (any origin works). */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** Closes the sandbox (and its `--data` file, where every acknowledged change already is). */
  close(): Promise<void>;
  /** The options in force, defaults filled in. */
  readonly options: SandboxOptions;
  /** The requests received (the service's operations), oldest first, filtered; the same as `GET /_sandbox/requests`. */
  requests(filter?: RequestFilter): RequestRecord[];
  /** Every external event accepted, oldest first (all of them: `GET /_sandbox/fired-events` answers a page at a time). */
  firedEvents(filter?: FiredEventsFilter): FiredEventRecord[];
  /** Loads other data (a seed, a count, a named state; omitted fields keep the sandbox's options) and clears both journals; the same as `POST /_sandbox/reset`. */
  reset(given?: { seed?: string; conversations?: number; state?: SandboxState }): Promise<{ bots: number; conversations: number }>;
  /** Arms a fault (by default once): the same as `POST /_sandbox/faults`, e.g. `{ operationId: "searchConversations", status: 503 }`. */
  fault(fault: Omit<Fault, "delayMs" | "times" | "status"> & { status?: number; delayMs?: number; times?: number }): Fault;
}

/** Each sandbox's handler with what a server hands it (see `serverFetch`). */
const handlers = new WeakMap<Sandbox, (request: Request, env: AppEnv["Bindings"]) => Response | Promise<Response>>();

/** The handler the HTTP server calls: `fetch`, also given Node's raw header list, which the request journal keeps. */
export function serverFetch(sandbox: Sandbox): (request: Request, env: AppEnv["Bindings"]) => Response | Promise<Response> {
  const handler = handlers.get(sandbox);
  if (!handler) throw new TypeError("serverFetch: not a sandbox made by openSandbox");
  return handler;
}

/** How a sandbox starts: its first data, where its fired events are kept, and how loads let other work through. */
export interface SandboxStart {
  /** The data to load first. */
  readonly source: DataSource;
  /** The fired events and the data's source beyond the process (a `--data` file); in memory when not given. */
  readonly kept?: KeptState | undefined;
  /** Awaited between chunks of a load while the sandbox serves, so other requests are answered meanwhile. */
  readonly pause?: () => Promise<void>;
}

/** Opens a sandbox over checked options: the engine shared by the HTTP server, `createSandbox` and the MSW handlers. */
export async function openSandbox(options: SandboxOptions, start: SandboxStart): Promise<Sandbox> {
  let store = await Store.load(dataOf(start.source));
  let loading: Promise<unknown> = Promise.resolve();
  const kept = start.kept ?? keptInMemory();
  const context: SandboxContext = {
    store: () => store,
    options,
    faults: new Faults(),
    fired: kept.fired,
    requests: new RequestJournal(),
    replaceData(source) {
      const loaded = loading.then(async () => {
        const next = await Store.load(dataOf(source), start.pause);
        // The new source and the cleared events are kept together, then the new data is swapped in, in the
        // same turn: a fire is checked and recorded against the data in place, never against data gone.
        kept.replaced(source);
        store = next;
        context.requests.clear();
        return store.counts();
      });
      loading = loaded.catch(() => undefined);
      return loaded;
    },
  };
  const app = createApp(context);
  const sandbox: Sandbox = {
    options,
    fetch: async (input, init) => app.fetch(input instanceof Request && init === undefined ? input : new Request(input, init)),
    close: async () => kept.close(),
    requests: (filter) => context.requests.list(filter),
    firedEvents: (filter) => allFiredEvents(context.fired, filter),
    reset: async (given = {}) => {
      const conflict = stateConflict(given);
      if (conflict) throw new TypeError(`conversations: ${conflict}`);
      return context.replaceData(generatedSource(options, given));
    },
    fault: (fault) => context.faults.add(fault),
  };
  handlers.set(sandbox, (request, env) => app.fetch(request, env));
  return sandbox;
}
