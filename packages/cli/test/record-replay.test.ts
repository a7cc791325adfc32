import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ExchangeRecord, exchangeBodyText, LaunchError, launchSandbox } from "@bot-conversation/sandbox";
import type { ConversationPage } from "@bot-conversation/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRecorder } from "../src/record/recorder.ts";
import { realBot, realToken, startRealService } from "./support/real-service.ts";

let service: Awaited<ReturnType<typeof startRealService>>;
beforeAll(async () => {
  service = await startRealService();
});
afterAll(async () => {
  await service.close();
});

const searchPath = (query: Record<string, string>) => `/api/v2/channels/conversations?${new URLSearchParams({ agentStageId: realBot, ...query })}`;
const firePath = "/api/v1/runtime/simple/external/events";
const badFire = JSON.stringify({ conversationId: "c-03", externalEventId: "order-shipped", externalEventPayload: { amount: "lots" } });

/** The requests of the session: each recorded, then asked again of the replay. */
const requests: [string, RequestInit][] = [
  [searchPath({ pageSize: "2" }), {}],
  [`${firePath}/nobody`, {}],
  [firePath, { method: "POST", body: badFire }],
];

/** Status, the service's own header, the media type and the body of an answer. */
const seen = async (response: Response) => [response.status, response.headers.get("x-service"), response.headers.get("content-type"), await response.text()];

describe("record replayed exactly: bot-conversation-sandbox --exchanges", () => {
  it("answers each recorded request with its recorded status, headers and body, and every other by the rules over the fixture", async () => {
    const out = await mkdtemp(join(tmpdir(), "record-replay-"));
    const recorder = await startRecorder({ upstream: service.url, out, salt: "s" });
    const upstream: unknown[][] = [];
    for (const [path, init] of requests)
      upstream.push(await seen(await fetch(`${recorder.url}${path}`, { ...init, headers: { "X-Token": realToken, "Content-Type": "application/json" } })));
    await recorder.stop();
    // The upstream's own answers: a page, its 404 and its 500, as application/problem+json with its X-Service header.
    expect(upstream.map(([status, service]) => [status, service])).toEqual([
      [200, "real"],
      [404, "real"],
      [500, "real"],
    ]);

    const sandbox = await launchSandbox(["--fixture", join(out, "fixture.json"), "--exchanges", join(out, "exchanges.ndjson"), "--page-base", "1"]);
    try {
      const replay = (path: string, init: RequestInit = {}) =>
        fetch(`${sandbox.url}${path}`, { ...init, headers: { "X-Token": "sandbox-token", "Content-Type": "application/json" } });
      // As the upstream answered, but for the end users' words, which the journal (and so its replay) holds pseudonymised.
      const journal = (await readFile(join(out, "exchanges.ndjson"), "utf8"))
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as ExchangeRecord);
      for (const [index, [path, init]] of requests.entries()) {
        const [status, header, mediaType, body] = await seen(await replay(path, init));
        expect([status, header, mediaType]).toEqual(upstream[index]!.slice(0, 3));
        expect(body).toBe(exchangeBodyText(journal[index]!.response.body));
      }
      expect(journal[0]!.response.body).toMatchObject({ json: { totalItemCount: 7, items: [{ id: "c-07" }, { id: "c-06" }] } });
      expect(journal[2]!.response.body).toEqual({ json: JSON.parse(upstream[2]![3] as string) });
      // Never recorded: the rules over the recorded conversations (no X-Service header: the sandbox's own answer).
      const other = await replay(searchPath({ pageSize: "4" }));
      expect(other.headers.get("x-service")).toBeNull();
      expect(((await other.json()) as ConversationPage).items.map((item) => item.id)).toEqual(["c-07", "c-06"]);
    } finally {
      await sandbox.stop();
    }
  });

  it("a missing --exchanges file is one line naming the flag", async () => {
    const error = (await launchSandbox(["--exchanges", "/nonexistent/exchanges.ndjson"]).catch((failure: unknown) => failure)) as LaunchError;
    expect(error).toBeInstanceOf(LaunchError);
    expect(error.code).toBe(2);
    expect(error.output.trim()).toBe('error: --exchanges: no such file "/nonexistent/exchanges.ndjson"');
  });
});
