import type { operations } from "@bot-conversation/types";
import { serviceOperations } from "./description.ts";
import { type Fixture, type LogFormat, maxConversations, type SandboxState, sandboxStates, stateCount } from "./model.ts";
import { checkSwitches, defaultSwitches, type SandboxSwitches } from "./switches.ts";

/** What the sandbox serves and how: the data, the accepted tokens, and the open-point switches. */
export interface SandboxOptions extends SandboxSwitches {
  /** Seed of the generated data: the same seed and count give the same data. */
  readonly seed: string;
  /** Number of conversations to generate. */
  readonly conversations: number;
  /** A fixture to load instead of generated data: the object, or the path of a JSON file. */
  readonly fixture: Fixture | string | undefined;
  /** Path of a file that keeps the state across restarts (Node only); `undefined` keeps it in memory. */
  readonly data: string | undefined;
  /** The `X-Token` values accepted; anything else is a 401. */
  readonly tokens: readonly string[];
  /** The named starting state (see `sandboxStates`); `default` is the data of `seed` and `conversations`. */
  readonly state: SandboxState;
  /** Added wait before each answer, in milliseconds: one for all operations, or per operation; a `{ min, max }` range is drawn from `seed`. */
  readonly latency: Latency;
  /**
   * Origins (`https://app.example.com`) whose pages may call the control API (`/_sandbox/*`) over HTTP,
   * besides loopback origins (`http://localhost:5173`, `http://127.0.0.1:8080`, ...); `--allow-origin`.
   */
  readonly allowOrigins: readonly string[];
  /** Host names the HTTP server answers the control API for, besides loopback names (`localhost`, `127.0.0.1`, `[::1]`); `--allow-host`. */
  readonly allowHosts: readonly string[];
  /**
   * A PostgreSQL URL (`postgres://user:password@host:5432/database`) that keeps every workspace of a shared
   * sandbox, for any number of replicas (Node only); `--database-url` or `DATABASE_URL`. Not with `data`.
   */
  readonly databaseUrl: string | undefined;
  /** The administrator token that manages workspaces (`/_sandbox/workspaces`), in every mode (without it no workspace can be created); never an accepted `tokens` value. `--admin-token` or `SANDBOX_ADMIN_TOKEN`. */
  readonly adminToken: string | undefined;
  /** Where the API reference is served (`http://127.0.0.1:8080/`), linked from the sandbox's `/` page; `--reference-url` or `SANDBOX_REFERENCE_URL` (`pnpm start` sets it). */
  readonly referenceUrl: string | undefined;
}

/** A wait in milliseconds: fixed, or drawn from a range (both ends included). */
export type Delay = number | { readonly min: number; readonly max: number };

/** The latency option: one delay for every operation, or a delay per operation (others answer at once). */
export type Latency = Delay | { readonly [operationId in keyof operations]?: Delay };

/** Where the command-line server listens, besides the sandbox options. */
export interface ServerOptions extends SandboxOptions {
  /** Interface to listen on. */
  readonly host: string;
  /** TCP port to listen on; 0 for any free port. */
  readonly port: number;
  /** The log's format (`--log-format`): `json` lines, or `pretty` for a person; `undefined` is `pretty` on a terminal and `json` otherwise. */
  readonly logFormat: LogFormat | undefined;
}

/** The defaults of every option. */
export const defaultOptions: ServerOptions = {
  ...defaultSwitches,
  host: "127.0.0.1",
  port: 4011,
  logFormat: undefined,
  seed: "bot-conversation",
  conversations: 200,
  fixture: undefined,
  data: undefined,
  tokens: ["sandbox-token"],
  state: "default",
  latency: 0,
  allowOrigins: [],
  allowHosts: [],
  databaseUrl: undefined,
  adminToken: undefined,
  referenceUrl: undefined,
};

/** The fewest characters of an administrator token: our choice. */
export const minAdminTokenLength = 16;

/** The text as an integer within bounds, or a `TypeError` naming `name` and what was expected. */
export const integerIn = (name: string, text: string, min: number, max: number): number => {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new TypeError(`${name}: expected an integer from ${min} to ${max}; got ${JSON.stringify(text)}`);
  }
  return Number(text);
};

/** Completes and checks options given in process; errors name the option and what was expected. */
export function resolveOptions(given: Partial<SandboxOptions> = {}): SandboxOptions {
  // A misspelt option would otherwise be dropped without a word.
  const known = Object.keys(defaultOptions).filter((key) => key !== "host" && key !== "port" && key !== "logFormat");
  for (const key of Object.keys(given)) {
    if (!known.includes(key)) throw new TypeError(`${key}: not an option of the sandbox; expected one of ${known.join(", ")}`);
  }
  const options = { ...defaultOptions, ...withoutUndefined(given), ...checkSwitches(withoutUndefined(given)) };
  if (typeof options.seed !== "string") throw new TypeError(`seed: expected a string; got ${typeof options.seed}`);
  integerIn("conversations", String(options.conversations), 0, maxConversations);
  if (!Array.isArray(options.tokens) || options.tokens.length === 0 || options.tokens.some((token) => typeof token !== "string" || token === "")) {
    throw new TypeError("tokens: expected a non-empty list of non-empty strings");
  }
  if (!(sandboxStates as readonly string[]).includes(options.state))
    throw new TypeError(`state: expected one of ${sandboxStates.join(", ")}; got ${JSON.stringify(options.state)}`);
  const conflict = stateConflict({ state: options.state, conversations: given.conversations });
  if (conflict) throw new TypeError(`conversations: ${conflict}`);
  if (options.state !== "default" && options.fixture !== undefined)
    throw new TypeError(`state: a fixture is its own data; give state ${JSON.stringify(options.state)} or a fixture, not both`);
  checkLatency(options.latency);
  checkDatabase(options);
  if (options.referenceUrl !== undefined && referenceUrlOf(options.referenceUrl) === undefined)
    throw new TypeError(`referenceUrl: expected an http or https URL such as http://127.0.0.1:8080/; got ${JSON.stringify(options.referenceUrl)}`);
  // A state that sets the count reports it, so options resolved again (a server's, then its sandbox's) agree.
  return {
    ...options,
    conversations: stateCount(options.state) ?? options.conversations,
    allowOrigins: checkList("allowOrigins", options.allowOrigins, originOf, "an origin such as https://app.example.com"),
    allowHosts: checkList("allowHosts", options.allowHosts, hostNameOf, "a host name such as sandbox.internal"),
  };
}

/** `databaseUrl` and `adminToken`: a PostgreSQL URL, not with `data`; an administrator token (in any mode) never an accepted token. Neither is echoed. */
function checkDatabase(options: SandboxOptions): void {
  const { databaseUrl, adminToken } = options;
  if (databaseUrl !== undefined) {
    if (typeof databaseUrl !== "string" || !URL.canParse(databaseUrl) || !/^postgres(ql)?:$/.test(new URL(databaseUrl).protocol)) {
      throw new TypeError(
        "databaseUrl: expected a PostgreSQL URL such as postgres://user:password@host:5432/database (the value given is not one; it is not shown, as it may hold a password)",
      );
    }
    if (options.data !== undefined) throw new TypeError("databaseUrl: give data (a file for one user) or databaseUrl (a database for a team), not both");
  }
  if (adminToken === undefined) return;
  if (typeof adminToken !== "string" || adminToken.length < minAdminTokenLength)
    throw new TypeError(`adminToken: expected a text of at least ${minAdminTokenLength} characters`);
  if (options.tokens.includes(adminToken) || defaultOptions.tokens.includes(adminToken))
    throw new TypeError("adminToken: must differ from every accepted token and from the default token");
}

function checkList(name: string, list: unknown, read: (text: string) => string | undefined, expected: string): string[] {
  if (!Array.isArray(list)) throw new TypeError(`${name}: expected a list of texts; got ${JSON.stringify(list)}`);
  return list.map((item: unknown) => {
    const read_ = typeof item === "string" ? read(item) : undefined;
    if (read_ === undefined) throw new TypeError(`${name}: expected ${expected}; got ${JSON.stringify(item)}`);
    return read_;
  });
}

/** An http or https URL without credentials, as the `/` page links it, or `undefined`. */
export function referenceUrlOf(text: unknown): string | undefined {
  if (typeof text !== "string" || !URL.canParse(text)) return undefined;
  const url = new URL(text);
  return /^https?:$/.test(url.protocol) && url.username === "" && url.password === "" ? url.href : undefined;
}

/** An origin as browsers send it (`scheme://host[:port]`, lower case, default port left out), or `undefined`. */
export function originOf(text: string): string | undefined {
  if (!URL.canParse(text)) return undefined;
  const url = new URL(text);
  if (!/^https?:$/.test(url.protocol) || url.username !== "" || url.password !== "" || !/^https?:\/\/[^/?#]+\/?$/i.test(text)) return undefined;
  return url.origin;
}

/** A host name (or IP address) as a `Host` header names it, lower case, without the port, or `undefined`. */
export function hostNameOf(text: string): string | undefined {
  if (text === "" || !URL.canParse(`http://${text}`)) return undefined;
  const url = new URL(`http://${text}`);
  return `${url.username}${url.password}${url.pathname}${url.search}${url.hash}` === "/" ? url.hostname : undefined;
}

const operationIds = serviceOperations.map((operation) => operation.operationId);

function checkLatency(latency: unknown): void {
  const checkDelay = (name: string, delay: unknown) => {
    const ok = (value: unknown) => typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 600_000;
    if (ok(delay)) return;
    const range = delay as { min?: unknown; max?: unknown } | null;
    if (
      typeof range === "object" &&
      range !== null &&
      Object.keys(range).every((key) => key === "min" || key === "max") &&
      ok(range.min) &&
      ok(range.max) &&
      (range.min as number) <= (range.max as number)
    )
      return;
    throw new TypeError(`${name}: expected milliseconds (an integer from 0 to 600000) or { min, max } with min <= max; got ${JSON.stringify(delay)}`);
  };
  if (typeof latency === "object" && latency !== null && !("min" in latency) && !("max" in latency)) {
    for (const [operationId, delay] of Object.entries(latency)) {
      if (!operationIds.includes(operationId)) throw new TypeError(`latency.${operationId}: not an operation; expected one of ${operationIds.join(", ")}`);
      checkDelay(`latency.${operationId}`, delay);
    }
    return;
  }
  checkDelay("latency", latency);
}

function withoutUndefined<T extends object>(given: T): Partial<T> {
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Why a count cannot go with a state that sets the count itself (`empty`, `large`), or `undefined`. */
export function stateConflict(given: { conversations?: number | undefined; state?: SandboxState | undefined }): string | undefined {
  const count = given.state === undefined ? undefined : stateCount(given.state);
  return count !== undefined && given.conversations !== undefined && given.conversations !== count
    ? `must not be sent with the state ${JSON.stringify(given.state)}, which sets the number of conversations itself (${count})`
    : undefined;
}
