/**
 * The shared sandbox (`--database-url`): workspaces on PostgreSQL, each with its own token, data,
 * switches, faults and fired events, served by any number of replicas. Each workspace is the same
 * sandbox as a single user's (`openSandbox`: the rules engine and the in-memory read path), over the
 * PostgreSQL store; a replica loads a workspace on first use and keeps at most `loadedWorkspacesLimit`
 * of them, least recently used out.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import { adoptData, openSandbox, registerHandler, type Sandbox, serverFetch } from "./core.ts";
import { StoreUnavailableError } from "./data/fired-events.ts";
import { fixtureDefects } from "./data/fixture.ts";
import { type PostgresKeptState, PostgresStore, redactedUrl, type WorkspaceChange, type WorkspaceRow } from "./data/postgres.ts";
import { dataOf, generatedSource } from "./data/source.ts";
import { controlChecker } from "./description.ts";
import type { AppEnv } from "./http/app.ts";
import { maxBodyBytes, refusal } from "./http/context.ts";
import { controlGuard } from "./http/guard.ts";
import { problemResponse, storeUnavailable } from "./http/problem.ts";
import { readJsonBody } from "./http/request.ts";
import type { DataSource, Fixture, SandboxState } from "./model.ts";
import type { Observer } from "./observe/observe.ts";
import { type SandboxOptions, stateConflict } from "./options.ts";
import { checkSwitches, type SandboxSwitches, switchDefinitions } from "./switches.ts";

/** A change heard this long after it was announced is logged as lagging (our choice). */
export const notificationLagWarningMs = 1_000;

/** Workspaces a replica keeps loaded besides the default one; the least recently used is dropped past it (our choice). */
export const loadedWorkspacesLimit = 32;

/** The workspace the `--token` tokens (default `sandbox-token`) serve; created on first start from the command's data options. */
export const defaultWorkspace = "default";

const checkWorkspaceRequest = controlChecker({ $ref: "#/components/schemas/WorkspaceRequest" });

/** A workspace loaded in this replica: its name, its sandbox and what it keeps in the database. */
interface LoadedWorkspace {
  readonly name: string;
  readonly sandbox: Sandbox;
  readonly kept: PostgresKeptState;
}

/** The switches among the options: what a workspace keeps of them. */
function switchesOf(options: SandboxOptions): Partial<SandboxSwitches> {
  return Object.fromEntries(switchDefinitions.map((definition) => [definition.key, options[definition.key]]));
}

/** The SHA-256 of a token, hex: the database keeps no token, only this. */
function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Opens the shared sandbox: connects to the database (creating or migrating its schema), creates the
 * default workspace from `initial` unless it exists, and listens for other replicas' changes. The result
 * answers every workspace (by the request's `X-Token`) and the administrator's `/_sandbox/workspaces`.
 * The `observer` logs the database lost and back, workspaces created, removed and lagging notifications,
 * and is given the database's pool, round trip and loaded workspaces for the metrics.
 */
export async function openSharedSandbox(options: SandboxOptions, initial: () => DataSource, observer: Observer): Promise<Sandbox> {
  const { logger, metrics } = observer;
  const database = await PostgresStore.open(options.databaseUrl!);
  // The URL without its password: the only way it is ever logged.
  logger.info({ database: redactedUrl(options.databaseUrl!) }, "database connected");
  metrics.useDatabase({ pool: () => database.poolStatistics(), roundTrip: () => database.roundTrip() });
  const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
  /** Opens a workspace's sandbox over its row: its switches over the command's options, its token(s). */
  const open = async (row: WorkspaceRow, tokens: readonly string[]): Promise<LoadedWorkspace> => {
    const kept = database.keptState(row.name, row.generation);
    const sandbox = await openSandbox({ ...options, ...checkSwitches(row.switches), tokens, data: undefined }, { source: row.source, kept, pause });
    return { name: row.name, sandbox, kept };
  };
  let main: LoadedWorkspace;
  try {
    await database.createWorkspace(defaultWorkspace, initial(), switchesOf(options), null);
    main = await open((await database.workspace(defaultWorkspace))!, options.tokens);
  } catch (error) {
    await database.close();
    throw error;
  }
  /** The other workspaces loaded, least recently used first, each with the SHA-256 of the token it was loaded for. */
  const loaded = new Map<string, Promise<LoadedWorkspace & { tokenSha256: string }>>();
  /** Token hashes seen, with their workspace: a workspace's requests ask the database nothing to find it. */
  const names = new Map<string, string>();

  metrics.countLoadedWith(() => loaded.size + 1);
  const forget = (name: string) => {
    loaded.delete(name);
    for (const [hash, owner] of names) if (owner === name) names.delete(hash);
  };
  /**
   * The workspace of a token that is not the default one's, loaded on first use, or `undefined` for a token
   * of none. A loaded workspace is used only for the token it was loaded with (its hash), so a token of a
   * removed workspace never reaches a new one of the same name.
   */
  const workspaceOf = async (token: string): Promise<LoadedWorkspace | undefined> => {
    const hash = tokenHash(token);
    const name = names.get(hash);
    const cached = name === undefined ? undefined : loaded.get(name);
    if (cached) {
      const entry = await cached;
      if (entry?.tokenSha256 === hash) {
        // Used now: moved to the most recent end.
        loaded.delete(name!);
        loaded.set(name!, cached);
        return entry;
      }
    }
    const row = await database.workspaceOfToken(hash);
    if (!row) {
      names.delete(hash);
      return undefined;
    }
    if (names.size >= loadedWorkspacesLimit * 4) names.clear();
    names.set(hash, row.name);
    const entry = open(row, [token]).then((opened) => ({ ...opened, tokenSha256: hash }));
    entry.catch(() => loaded.delete(row.name));
    loaded.set(row.name, entry);
    while (loaded.size > loadedWorkspacesLimit) {
      forget(loaded.keys().next().value!);
      metrics.workspaceEvicted();
    }
    return entry;
  };

  /** Opens the default workspace again as the database holds it (its switches changed). */
  const reopenMain = async () => {
    const row = await database.workspace(defaultWorkspace);
    if (row) main = await open(row, options.tokens);
  };
  /**
   * Follows a change committed by any replica (this one included): new data is loaded and swapped in,
   * faults read again, a workspace whose switches changed opened again, a removed workspace dropped.
   */
  const follow = async ({ workspace, change, announcedAt }: WorkspaceChange) => {
    if (announcedAt !== undefined) {
      const lagMs = Date.now() - announcedAt;
      metrics.notificationLag(lagMs / 1000);
      if (lagMs > notificationLagWarningMs) logger.warn({ workspace, change, lagMs }, "replica notification lagging");
    }
    const entry = workspace === defaultWorkspace ? main : await loaded.get(workspace)?.catch(() => undefined);
    if (!entry) return;
    if (change === "deleted") return forget(workspace);
    if (change === "faults") return entry.kept.faultsChanged();
    if (change === "switches") return workspace === defaultWorkspace ? reopenMain() : forget(workspace);
    const row = await database.workspace(workspace);
    if (!row) return forget(workspace);
    if (row.generation > entry.kept.generation) await adoptData(entry.sandbox, row.source, (swap) => entry.kept.adopted(row.generation, swap));
  };
  const followAll = () => {
    metrics.databaseUp(true);
    logger.info({ database: redactedUrl(options.databaseUrl!) }, "database back: every loaded workspace is read again");
    // Changes may have been missed while the listening connection was down: every workspace is read again.
    for (const name of [...loaded.keys()]) forget(name);
    names.clear();
    main.kept.faultsChanged();
    void follow({ workspace: defaultWorkspace, change: "data" }).catch(() => undefined);
  };
  try {
    await database.listen(
      (change) => void follow(change).catch(() => undefined),
      followAll,
      () => {
        metrics.databaseUp(false);
        logger.warn({ database: redactedUrl(options.databaseUrl!) }, "database lost: requests that need it are answered 503 until it is back");
      },
    );
  } catch (error) {
    await database.close();
    throw error;
  }

  const admin = adminRoutes(options, database, forget, observer);
  const guard = controlGuard(options);
  const handler = async (request: Request, env: AppEnv["Bindings"]): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname === "/_sandbox/health") return Response.json({ status: "ok" });
    if (pathname === "/_sandbox/ready") {
      return (await database.ready())
        ? Response.json({ status: "ready" })
        : storeUnavailable(options.errorMediaType, new StoreUnavailableError("The sandbox's database cannot be reached now.", 1));
    }
    if (pathname === "/_sandbox/workspaces" || pathname.startsWith("/_sandbox/workspaces/")) {
      const refused = env?.network ? guard(request.headers.get("host") ?? undefined, request.headers.get("origin") ?? undefined) : undefined;
      if (refused) return problemResponse(options.errorMediaType, 403, refused);
      return admin.fetch(request, env);
    }
    const token = request.headers.get("x-token") ?? "";
    let entry: LoadedWorkspace | undefined;
    try {
      // No token, the default workspace's, or a preflight: the default workspace answers (a 401 when the token is wrong, as ever).
      entry = token === "" || options.tokens.includes(token) ? main : await workspaceOf(token);
      if (entry && env?.observation) env.observation.workspace = entry.name;
      if (pathname === "/_sandbox/switches" && entry && request.method !== "OPTIONS") {
        const refused = env?.network ? guard(request.headers.get("host") ?? undefined, request.headers.get("origin") ?? undefined) : undefined;
        if (refused) return problemResponse(options.errorMediaType, 403, refused);
        return await switchesRoute(request, options, entry, async (switches) => {
          await database.setSwitches(entry!.name, switches);
          // Opened again here before the answer; the other replicas hear of it.
          if (entry!.name === defaultWorkspace) await reopenMain();
          else forget(entry!.name);
        });
      }
    } catch (error) {
      if (error instanceof StoreUnavailableError) return storeUnavailable(options.errorMediaType, error);
      throw error;
    }
    return serverFetch(entry?.sandbox ?? main.sandbox)(request, env);
  };

  // The default workspace's methods, on the default workspace in place (opened again when its switches change).
  const sandbox: Sandbox = {
    get options() {
      return main.sandbox.options;
    },
    requests: (filter) => main.sandbox.requests(filter),
    firedEvents: (filter) => main.sandbox.firedEvents(filter),
    listFiredEvents: (filter) => main.sandbox.listFiredEvents(filter),
    reset: (given) => main.sandbox.reset(given),
    fault: (fault) => main.sandbox.fault(fault),
    fetch: async (input, init) => handler(input instanceof Request && init === undefined ? input : new Request(input, init), {}),
    close: async () => {
      loaded.clear();
      await database.close();
    },
  };
  registerHandler(sandbox, handler);
  return sandbox;
}

const checkSwitchesBody = controlChecker({ $ref: "#/components/schemas/Switches" });

/**
 * `GET /_sandbox/switches` (a workspace's switches) and `PUT /_sandbox/switches` (changes those given, the
 * others kept; `save` keeps them and opens the workspace again), with the workspace's own token.
 */
async function switchesRoute(
  request: Request,
  options: SandboxOptions,
  workspace: LoadedWorkspace,
  save: (switches: SandboxSwitches) => Promise<void>,
): Promise<Response> {
  const current = switchesOf(workspace.sandbox.options) as SandboxSwitches;
  if (request.method === "GET") return Response.json(current);
  if (request.method !== "PUT")
    return problemResponse(options.errorMediaType, 405, `/_sandbox/switches accepts GET, PUT only; got ${request.method}.`, undefined, { allow: "GET, PUT" });
  const body = await readJsonBody(request, maxBodyBytes.operation);
  if (!body.ok) return refusal({ options }, body);
  const invalid = (defects: { path: string; message: string }[]) =>
    refusal({ options }, { ok: false, status: 400, detail: "The switches are invalid; nothing was changed.", defects });
  const defects = checkSwitchesBody(body.value);
  if (defects.length > 0) return invalid(defects);
  let switches: SandboxSwitches;
  try {
    switches = checkSwitches({ ...current, ...(body.value as Partial<SandboxSwitches>) });
  } catch (error) {
    return invalid([{ path: "$", message: (error as Error).message }]);
  }
  await save(switches);
  return Response.json(switches);
}

/**
 * The administrator's routes: `POST /_sandbox/workspaces` (answers the workspace's token, once),
 * `GET /_sandbox/workspaces`, `DELETE /_sandbox/workspaces/{name}`; every one needs `--admin-token`.
 */
function adminRoutes(options: SandboxOptions, database: PostgresStore, forget: (name: string) => void, { logger }: Observer): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const mediaType = options.errorMediaType;
  const expected = options.adminToken === undefined ? undefined : tokenHash(options.adminToken);
  routes.use(async (c, next) => {
    // Compared by their hashes in constant time; never logged or echoed.
    const given = Buffer.from(tokenHash(c.req.header("x-token") ?? ""), "hex");
    if (expected === undefined || !timingSafeEqual(given, Buffer.from(expected, "hex"))) {
      return problemResponse(
        mediaType,
        401,
        expected === undefined
          ? "Workspaces are managed with the administrator token, and this sandbox has none (start it with --admin-token)."
          : "Authorization failed: workspaces are managed with the administrator token (--admin-token). Check the X-Token header.",
      );
    }
    await next();
  });
  routes.onError((error) => {
    if (error instanceof StoreUnavailableError) return storeUnavailable(mediaType, error);
    console.error("sandbox: internal error:", error);
    return problemResponse(mediaType, 500, "Internal error of the sandbox.");
  });
  const invalid = (defects: { path: string; message: string }[]) =>
    refusal({ options }, { ok: false, status: 400, detail: "The workspace request is invalid; nothing was created.", defects });

  routes.post("/_sandbox/workspaces", async (c) => {
    const body = await readJsonBody(c.req.raw, maxBodyBytes.fixture);
    if (!body.ok) return refusal({ options }, body);
    const defects = checkWorkspaceRequest(body.value);
    if (defects.length > 0) return invalid(defects);
    const given = body.value as {
      name: string;
      seed?: string;
      conversations?: number;
      state?: SandboxState;
      fixture?: unknown;
      switches?: Partial<SandboxSwitches>;
    };
    const conflict = stateConflict(given);
    if (conflict) return invalid([{ path: "$.conversations", message: conflict }]);
    if (given.fixture !== undefined) {
      const other = (["seed", "conversations", "state"] as const).find((key) => given[key] !== undefined);
      if (other) return invalid([{ path: `$.${other}`, message: "must not be sent with a fixture, which is its own data" }]);
      const fixtureProblems = fixtureDefects(given.fixture);
      if (fixtureProblems.length > 0) return invalid(fixtureProblems.map((defect) => ({ ...defect, path: defect.path.replace(/^\$/, "$.fixture") })));
    }
    let switches: SandboxSwitches;
    try {
      switches = checkSwitches({ ...switchesOf(options), ...given.switches });
    } catch (error) {
      return invalid([{ path: "$.switches", message: (error as Error).message }]);
    }
    const source: DataSource = given.fixture === undefined ? generatedSource(options, given) : { fixture: given.fixture as Fixture };
    const token = randomBytes(24).toString("base64url");
    if (!(await database.createWorkspace(given.name, source, switches, tokenHash(token)))) {
      return problemResponse(mediaType, 409, `A workspace named ${JSON.stringify(given.name)} exists already; nothing was created.`);
    }
    const data = dataOf(source);
    logger.info({ workspace: given.name }, "workspace created");
    return Response.json(
      { name: given.name, token, bots: data.bots.length, conversations: data.count },
      { status: 201, headers: { location: `/_sandbox/workspaces/${given.name}` } },
    );
  });

  routes.get("/_sandbox/workspaces", async () => Response.json(await database.listWorkspaces()));

  routes.delete("/_sandbox/workspaces/:name", async (c) => {
    const name = c.req.param("name");
    if (name === defaultWorkspace)
      return problemResponse(mediaType, 409, `The workspace "${defaultWorkspace}" serves the sandbox's --token tokens and cannot be removed.`);
    if (!(await database.deleteWorkspace(name))) return problemResponse(mediaType, 404, `No workspace named ${JSON.stringify(name)}.`);
    // Refused here from now on; the other replicas hear of it (NOTIFY).
    forget(name);
    logger.info({ workspace: name }, "workspace removed");
    return new Response(null, { status: 204 });
  });

  routes.all("*", (c) => {
    const allowed = c.req.path === "/_sandbox/workspaces" ? "GET, POST" : /^\/_sandbox\/workspaces\/[^/]+$/.test(c.req.path) ? "DELETE" : undefined;
    if (allowed === undefined) return problemResponse(mediaType, 404, `No route ${c.req.method} ${c.req.path}.`);
    return problemResponse(mediaType, 405, `${c.req.path} accepts ${allowed} only; got ${c.req.method}.`, undefined, { allow: allowed });
  });
  return routes;
}
