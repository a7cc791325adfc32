import { createApp, type AppEnv } from "./app.ts";
import type { SandboxContext } from "./context.ts";
import { Faults, type Fault } from "./faults.ts";
import { FiredEvents, RequestJournal, type FiredEventRecord, type FiredEventsKeeper, type RequestFilter, type RequestRecord } from "./journal.ts";
import type { SandboxOptions, SandboxState } from "./options.ts";
import { stateConflict } from "./options.ts";
import { generatedSource, Store, type DataSource } from "./store.ts";

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
  /** The external events accepted, oldest first; the same as `GET /_sandbox/fired-events`. */
  firedEvents(filter?: { conversationId?: string; externalEventId?: string }): FiredEventRecord[];
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

/** How a sandbox starts: its first data, the journal kept from before, and how loads let other work through. */
export interface SandboxStart {
  /** The data to load first. */
  readonly source: DataSource;
  /** Fired events kept from before (a `--data` file). */
  readonly events?: readonly FiredEventRecord[];
  /** Told of every change to keep (a `--data` file), or nothing. */
  readonly keeper?: (FiredEventsKeeper & { replaced(source: DataSource): void; close(): void }) | undefined;
  /** Awaited between chunks of a load while the sandbox serves, so other requests are answered meanwhile. */
  readonly pause?: () => Promise<void>;
}

/** Opens a sandbox over checked options: the engine shared by the HTTP server, `createSandbox` and the MSW handlers. */
export async function openSandbox(options: SandboxOptions, start: SandboxStart): Promise<Sandbox> {
  let store = await Store.load(start.source);
  let loading: Promise<unknown> = Promise.resolve();
  const context: SandboxContext = {
    store: () => store,
    options,
    faults: new Faults(),
    fired: new FiredEvents(start.events, start.keeper),
    requests: new RequestJournal(),
    replaceData(source) {
      const loaded = loading.then(async () => {
        const next = await Store.load(source, start.pause);
        start.keeper?.replaced(source);
        store = next;
        context.fired.clear();
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
    close: async () => start.keeper?.close(),
    requests: (filter) => context.requests.list(filter),
    firedEvents: (filter) => context.fired.list(filter),
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
