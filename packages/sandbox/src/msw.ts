/**
 * The sandbox as MSW request handlers: the same engine, rules and data as the HTTP sandbox, inside a
 * browser page (`setupWorker`), a test runner (`setupServer`) or jsdom, with no server. Nothing here
 * touches the file system, so a bundler can take it into a page as it is.
 */
import { type HttpHandler, http } from "msw/http";
import { OpenSandbox, type Sandbox } from "./core.ts";
import { checkExchanges, type ExchangeRecord, ExchangeReplay } from "./data/exchanges.ts";
import { checkFixture } from "./data/fixture.ts";
import { MemoryStore } from "./data/memory-store.ts";
import { generatedSource } from "./data/source.ts";
import { compiledService } from "./description.ts";
import type { Fixture } from "./model.ts";
import { resolveOptions, type SandboxOptions } from "./options.ts";

/** The options of `createSandboxHandlers`: the sandbox's own (but `data`, and `fixture` only as an object), and where to answer. */
export type SandboxHandlersOptions = Partial<Omit<SandboxOptions, "data" | "fixture" | "allowOrigins" | "allowHosts">> & {
  /**
   * A fixture object to load in place of generated data: a `Fixture`, or the same imported from a JSON file
   * (`import fixture from "./fixture.json"`, whose strings TypeScript does not narrow to the enumerations),
   * checked when the handlers are made.
   */
  readonly fixture?: Fixture | FixtureJson;
  /** A recording's exchanges (the lines of `exchanges.ndjson`, as objects) to answer exactly; every other request by the rules. */
  readonly exchanges?: readonly ExchangeRecord[];
  /**
   * The origin (and base path) whose requests the handlers answer, e.g. `https://bots.example.com`;
   * by default the service's paths and `/_sandbox/` on any origin.
   */
  readonly baseUrl?: string;
};

/** A fixture as a JSON import types it: the fixture's shape, its strings not narrowed (checked by the handlers as any fixture is). */
export interface FixtureJson {
  /** The bots, each with its triggers. */
  readonly bots: readonly object[];
  /** The conversations, each of a bot listed in `bots`. */
  readonly conversations: readonly object[];
}

export type { ExchangeRecord } from "./data/exchanges.ts";
export type { Fixture } from "./model.ts";

/** MSW request handlers with the sandbox behind them, to pass to `setupServer(...handlers)` or `setupWorker(...handlers)`. */
export interface SandboxHandlers extends Array<HttpHandler> {
  /** The sandbox the handlers answer from (ready once its data is loaded): `requests()`, `firedEvents()`, `reset()`, `fault()`. */
  readonly sandbox: Promise<Sandbox>;
}

/** The oldest Node.js that MSW 3 runs on (it calls `Promise.withResolvers`; npm only warns of its `engines`). */
export const mswMinimumNode = [22, 12] as const;

/** On a Node.js older than MSW 3 needs, an error naming the version needed (in a browser there is no `process`: nothing to check). */
function requireMswNode(): void {
  const version = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
  if (version === undefined) return;
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > mswMinimumNode[0] || (major === mswMinimumNode[0] && minor >= mswMinimumNode[1])) return;
  throw new Error(
    `createSandboxHandlers: MSW 3 needs Node.js ${mswMinimumNode.join(".")} or later (it calls Promise.withResolvers); this is Node.js ${version}. Run the tests on Node.js ${mswMinimumNode.join(".")}+, or use createSandbox's fetch instead of MSW.`,
  );
}

/** The paths the sandbox answers, below the base URL: the service's, as the description gives them (a parameter matches any segment), and the control API's. */
const paths = [...new Set(compiledService.operations.map((operation) => operation.template.fill(() => "*"))), "/_sandbox/*"];

/**
 * Creates MSW handlers that run the sandbox's rules over its data, in process: `setupServer(...createSandboxHandlers())`.
 * Takes the sandbox's options (`seed`, `conversations`, `state`, `latency`, the switches, `fixture` as an
 * object, `tokens`), `exchanges` (a recording to answer exactly, as objects) and `baseUrl`; an unknown option is a `TypeError` naming it.
 */
export function createSandboxHandlers(given: SandboxHandlersOptions = {}): SandboxHandlers {
  requireMswNode();
  const { baseUrl, exchanges, ...rest } = given;
  if (typeof exchanges === "string") throw new TypeError("exchanges: expected the recorded exchanges as objects (the MSW handlers read no files); got a path");
  const replay = exchanges === undefined ? undefined : new ExchangeReplay(checkExchanges(exchanges));
  if ("data" in rest) throw new TypeError("data: a file is not kept by the MSW handlers; use the sandbox command or createSandbox for --data");
  for (const key of ["allowOrigins", "allowHosts"]) {
    if (key in rest)
      throw new TypeError(`${key}: the MSW handlers answer inside the page or process, which no other origin or host reaches; it guards the HTTP server only`);
  }
  if (typeof rest.fixture === "string") throw new TypeError("fixture: expected a fixture object (the MSW handlers read no files); got a path");
  if (baseUrl !== undefined && !(typeof baseUrl === "string" && URL.canParse(baseUrl) && /^https?:/.test(baseUrl))) {
    throw new TypeError(`baseUrl: expected an http(s) URL such as https://bots.example.com; got ${JSON.stringify(baseUrl)}`);
  }
  // A fixture typed by a JSON import is checked here like any other: checkFixture names whatever does not fit.
  const options = resolveOptions(rest as Partial<SandboxOptions>);
  const fixture = options.fixture === undefined ? undefined : checkFixture(options.fixture);
  const sandbox = OpenSandbox.open(options, new MemoryStore(), () => (fixture ? { fixture } : generatedSource(options, {})), { replay });
  const prefix = baseUrl === undefined ? "*" : baseUrl.replace(/\/+$/, "");
  const handlers = paths.map((path) => http.all(`${prefix}${path}`, async ({ request }) => (await sandbox).fetch(request)));
  return Object.assign(handlers, { sandbox });
}
