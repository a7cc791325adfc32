import { OpenSandbox, type Sandbox } from "./core.ts";
import { checkExchanges, type ExchangeRecord, ExchangeReplay } from "./data/exchanges.ts";
import { readExchanges } from "./data/exchanges-file.ts";
import { checkFixture } from "./data/fixture.ts";
import { readFixture } from "./data/fixture-file.ts";
import { MemoryStore } from "./data/memory-store.ts";
import { generatedSource } from "./data/source.ts";
import type { SandboxStore } from "./data/store.ts";
import { type RunningServer, serveSandbox } from "./http/server.ts";
import type { DataSource } from "./model.ts";
import type { SandboxLogger } from "./observe/log.ts";
import { newObserver, type ObservedSandbox, type Observer, observeSandbox } from "./observe/observe.ts";
import { resolveOptions, type SandboxOptions, type ServerOptions } from "./options.ts";

export type { Sandbox } from "./core.ts";

/** The sandbox served over HTTP: its base URL (e.g. `http://127.0.0.1:4011`), the sandbox, and `stop()` (drains, then closes the sandbox). */
export type RunningSandbox = RunningServer<Sandbox>;

/** What `createSandbox` takes: the command's options, a logger (pino's) for the log lines (quiet without one), and a recording to replay exactly. */
export type CreateSandboxOptions = Partial<SandboxOptions> & {
  readonly logger?: SandboxLogger | undefined;
  /**
   * A recording's exchanges to answer exactly (`bot-conversation record`'s `exchanges.ndjson`: its path, or its
   * lines as objects): a recorded request (same method, path, query and body, with an accepted token) gets its
   * recorded status, headers and body; every other request is answered by the rules over the data.
   */
  readonly exchanges?: string | readonly ExchangeRecord[] | undefined;
};

/**
 * Starts a sandbox in process, with the same options as the command (`fixture` an object or a file
 * path). With `data`, a file that already holds data is served as it is (its source, its workspaces and
 * its fired events); otherwise the fixture, or data generated from `seed`, `conversations` and `state`, is
 * loaded first, and the file keeps it from then on (a SQLite database, held by this sandbox alone).
 * With `databaseUrl`, the sandbox is a replica of a shared sandbox on PostgreSQL: the data options are
 * those of the default workspace when it is first created. In every mode, `adminToken` manages workspaces.
 * Quiet unless given a `logger` (a pino logger, as the command's `--log-format` makes); its metrics
 * (`GET /_sandbox/metrics`) are its own whatever the mode.
 */
export async function createSandbox(given: CreateSandboxOptions = {}): Promise<Sandbox> {
  return await openSandbox(given);
}

/** `createSandbox`, typed as what the HTTP server serves. */
async function openSandbox(given: CreateSandboxOptions): Promise<ObservedSandbox> {
  const { logger, exchanges, ...rest } = given;
  const options = resolveOptions(rest);
  const records = exchanges === undefined ? undefined : typeof exchanges === "string" ? await readExchanges(exchanges) : checkExchanges(exchanges);
  const observer = newObserver(logger);
  const fixture =
    typeof options.fixture === "string" ? await readFixture(options.fixture) : options.fixture === undefined ? undefined : checkFixture(options.fixture);
  const initial = (): DataSource => (fixture ? { fixture } : generatedSource(options, {}));
  // Between chunks of a reset's load, the event loop answers other requests (a macrotask: I/O runs).
  const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
  const store = await storeOf(options, initial, observer);
  return observeSandbox(
    await OpenSandbox.open(options, store, initial, {
      pause,
      events: observer.events,
      replay: records && new ExchangeReplay(records),
      observer: observer.requests,
    }),
    observer,
  );
}

/** The store of the options: PostgreSQL (`databaseUrl`, whose pool and round trip the observer measures), the `--data` file, or memory. */
async function storeOf(options: SandboxOptions, initial: () => DataSource, observer: Observer): Promise<SandboxStore> {
  if (options.databaseUrl !== undefined) {
    // pg is loaded only for a database: the rest of the sandbox (and its browser build) runs without it.
    const { PostgresStore, redactedUrl } = await import("./data/postgres.ts");
    const store = await PostgresStore.open(options.databaseUrl);
    observer.useDatabase(redactedUrl(options.databaseUrl), { pool: () => store.poolStatistics(), roundTrip: () => store.roundTrip() });
    return store;
  }
  // node:sqlite is loaded only for --data: the rest of the sandbox (and its browser build) runs without it.
  if (options.data !== undefined) return (await import("./data/data-file-store.ts")).DataFileStore.open(options.data, initial);
  return new MemoryStore();
}

/** Creates the sandbox and serves it with Node's HTTP server (`http/server.ts`, the only Node-specific part); `logger` as `createSandbox`'s. */
export async function startSandboxServer(
  options: Partial<ServerOptions> &
    Pick<ServerOptions, "host" | "port"> & { readonly logger?: SandboxLogger | undefined; readonly exchanges?: CreateSandboxOptions["exchanges"] },
): Promise<RunningSandbox> {
  const { host, port, logFormat: _chosenByTheCommand, ...sandboxOptions } = options;
  return await serveSandbox(await openSandbox(sandboxOptions), { host, port });
}
