/** A real PostgreSQL for the shared sandbox's tests, and calls into a sandbox with a workspace's token. */
import { startPostgres, type TestPostgres } from "@bot-conversation/test-support/postgres";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { afterAll, beforeAll, expect } from "vitest";

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

/** A request under way whose JSON body is sent in two halves: held open between them. */
export interface HeldRequest {
  /** Resolves once the sandbox reads on past the first half: the request is bound to its workspace by then. */
  readonly reading: Promise<void>;
  /** Sends the rest of the body. */
  finish(): void;
  /** The answer, once the rest is sent. */
  readonly answer: Promise<Response>;
}

/**
 * Sends `json` to `path` with the token as a streamed body of which only the first half is sent until `finish()`:
 * a request that stays open (a slow client, a large body) while other requests are answered.
 */
export function heldRequest(target: Exclude<Target, string>, token: string, path: string, method: string, json: unknown): HeldRequest {
  const bytes = new TextEncoder().encode(JSON.stringify(json));
  const half = Math.floor(bytes.length / 2);
  let startedReading!: () => void;
  const reading = new Promise<void>((resolve) => (startedReading = resolve));
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>(
    {
      start(given) {
        controller = given;
        given.enqueue(bytes.slice(0, half));
      },
      // Asked for more once the first half is read (no queue beyond it): the sandbox is reading the body.
      pull: () => startedReading(),
    },
    { highWaterMark: 0 },
  );
  const init = { method, headers: { "x-token": token, "content-type": "application/json" }, body, duplex: "half" } as RequestInit;
  const answer = target.fetch(`http://127.0.0.1${path}`, init);
  return {
    reading,
    finish: () => {
      controller.enqueue(bytes.slice(half));
      controller.close();
    },
    answer,
  };
}

/**
 * A fire into `conversationId` (its order number `late`), a reset (40 conversations), a switches change (`pageBase` 1)
 * and a fault (every search a 429, five times) sent to a workspace, each held open with half its body sent: one
 * request of every kind that changes a workspace.
 */
export function heldChanges(target: Exclude<Target, string>, token: string, conversationId: string): HeldRequest[] {
  return [
    heldRequest(target, token, "/api/v1/runtime/simple/external/events", "POST", {
      conversationId,
      externalEventId: "order-status-changed",
      externalEventPayload: { orderNumber: "late" },
    }),
    heldRequest(target, token, "/_sandbox/reset", "POST", { seed: "late", conversations: 40 }),
    heldRequest(target, token, "/_sandbox/switches", "PUT", { pageBase: 1 }),
    heldRequest(target, token, "/_sandbox/faults", "POST", { operationId: "searchConversations", status: 429, times: 5 }),
  ];
}

/** Expects each answer to be the one a request with the removed workspace's token gets now (its 401): status, body and type. */
export async function expectAnsweredAsRemoved(answers: readonly Response[], target: Target, removedToken: string): Promise<void> {
  const gone = await call(target, removedToken, "/_sandbox/switches");
  expect(gone.status).toBe(401);
  const goneAnswer = { status: gone.status, body: await gone.text(), type: gone.headers.get("content-type") };
  for (const answer of answers) expect({ status: answer.status, body: await answer.text(), type: answer.headers.get("content-type") }).toEqual(goneAnswer);
}
