/** A real PostgreSQL for the shared sandbox's tests, and calls into a sandbox with a workspace's token. */
import { startPostgres, type TestPostgres } from "@bot-conversation/test-support/postgres";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { afterAll, beforeAll } from "vitest";

/** The administrator token the tests start shared sandboxes with. */
export const adminToken = "admin-token-of-the-tests-5d1c";

/** A PostgreSQL server for the tests of one file (started before them, stopped after), and a fresh database per call of `database()`. */
export function usePostgres(): { server(): TestPostgres; database(): Promise<string> } {
  let server: TestPostgres | undefined;
  let count = 0;
  beforeAll(async () => {
    server = await startPostgres();
  }, heavyTestTimeoutMs);
  afterAll(() => server?.dispose(), heavyTestTimeoutMs);
  return {
    server: () => server!,
    database: () => server!.createDatabase(`sandbox_${++count}`),
  };
}

/** Something that answers requests: an in-process sandbox (`fetch`) or a server's base URL. */
export type Target = { fetch(input: string, init?: RequestInit): Promise<Response> } | string;

/** Calls `path` on the target with the token (and a JSON body when given). */
export function call(target: Target, token: string, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const { json, ...rest } = init;
  const request: RequestInit = {
    ...rest,
    headers: { "x-token": token, ...(json === undefined ? {} : { "content-type": "application/json" }), ...rest.headers },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  };
  return typeof target === "string" ? fetch(`${target}${path}`, request) : target.fetch(`http://127.0.0.1${path}`, request);
}

/** Creates a workspace with the administrator token; resolves to its token. */
export async function createWorkspace(target: Target, body: Record<string, unknown>): Promise<string> {
  const response = await call(target, adminToken, "/_sandbox/workspaces", { method: "POST", json: body });
  if (response.status !== 201) throw new Error(`creating workspace ${JSON.stringify(body["name"])}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}
