import { allFiredEvents, type FiredEventRecord, type FiredEventsFilter, type KeptState, keptInMemory, listAllFiredEvents } from "./data/fired-events.ts";
import { dataOf, generatedSource } from "./data/source.ts";
import { Store } from "./engine/store.ts";
import { type AppEnv, createApp } from "./http/app.ts";
import type { SandboxContext } from "./http/context.ts";
import { type Fault, type FaultRequest, Faults } from "./http/faults.ts";
import { type RequestFilter, RequestJournal, type RequestRecord } from "./http/journal.ts";
import type { DataSource, SandboxState } from "./model.ts";
import type { SandboxOptions } from "./options.ts";
import { stateConflict } from "./options.ts";

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
  /** Every external event accepted, oldest first (all of them: `GET /_sandbox/fired-events` answers a page at a time); with a database, use `listFiredEvents`. */
  firedEvents(filter?: FiredEventsFilter): FiredEventRecord[];
  /** Every external event accepted, oldest first, from any store (a database's included). */
  listFiredEvents(filter?: FiredEventsFilter): Promise<FiredEventRecord[]>;
  /** Loads other data (a seed, a count, a named state; omitted fields keep the sandbox's options) and clears both journals; the same as `POST /_sandbox/reset`. */
  reset(given?: { seed?: string; conversations?: number; state?: SandboxState }): Promise<{ bots: number; conversations: number }>;
  /** Arms a fault (by default once): the same as `POST /_sandbox/faults`, e.g. `{ operationId: "searchConversations", status: 503 }`; with a database, use `POST /_sandbox/faults`. */
  fault(fault: FaultRequest): Fault;
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
    faults: kept.faults ?? new Faults(),
    fired: kept.fired,
    requests: new RequestJournal(),
    replaceData: (source) => load(source, (swap) => kept.replaced(source, swap)),
  };
  /**
   * Loads `source`, then hands `commit` the swap: it keeps the change (or checks it is still news) and
   * swaps the new data in, in the same turn, so a fire is checked and recorded against the data in place,
   * never against data gone. Loads run one after another, in the order asked.
   */
  function load(source: DataSource, commit: (swap: () => void) => void | Promise<void>): Promise<{ bots: number; conversations: number }> {
    const loaded = loading.then(async () => {
      const next = await Store.load(dataOf(source), start.pause);
      await commit(() => {
        store = next;
        context.requests.clear();
      });
      return store.counts();
    });
    loading = loaded.catch(() => undefined);
    return loaded;
  }
  const app = createApp(context);
  const sandbox: Sandbox = {
    options,
    fetch: async (input, init) => app.fetch(input instanceof Request && init === undefined ? input : new Request(input, init)),
    close: async () => kept.close(),
    requests: (filter) => context.requests.list(filter),
    firedEvents: (filter) => allFiredEvents(context.fired, filter),
    listFiredEvents: (filter) => listAllFiredEvents(context.fired, filter),
    reset: async (given = {}) => {
      const conflict = stateConflict(given);
      if (conflict) throw new TypeError(`conversations: ${conflict}`);
      return context.replaceData(generatedSource(options, given));
    },
    fault: (fault) => {
      const armed = context.faults.add(fault);
      if (armed instanceof Promise) throw new TypeError("fault(): the faults are kept in a database; arm one with POST /_sandbox/faults");
      return armed;
    },
  };
  handlers.set(sandbox, (request, env) => app.fetch(request, env));
  loaders.set(sandbox, load);
  return sandbox;
}

/** Each sandbox's load (see `openSandbox`), for a change another process already kept (`adoptData`). */
const loaders = new WeakMap<Sandbox, (source: DataSource, commit: (swap: () => void) => void | Promise<void>) => Promise<unknown>>();

/**
 * Loads data that another replica already kept and swaps it in once loaded, if `commit` still finds it
 * news (it calls the swap it is given, in the same turn, or not at all): how a replica follows a reset
 * made on another.
 */
export function adoptData(sandbox: Sandbox, source: DataSource, commit: (swap: () => void) => void): Promise<unknown> {
  const load = loaders.get(sandbox);
  if (!load) throw new TypeError("adoptData: not a sandbox made by openSandbox");
  return load(source, commit);
}

/** Registers the handler of a sandbox that is not made by `openSandbox` (the shared sandbox's), for `serverFetch`. */
export function registerHandler(sandbox: Sandbox, handler: (request: Request, env: AppEnv["Bindings"]) => Response | Promise<Response>): void {
  handlers.set(sandbox, handler);
}
