import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { maxRecordedText } from "../src/http/journal.ts";
import { createSandbox, launchSandbox, type Sandbox } from "../src/index.ts";
import { exampleFixture } from "./support/fixture.ts";

const scratch = mkdtempSync(join(tmpdir(), "sandbox-change-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const token = "sandbox-token";
const firePath = "http://sandbox.test/api/v1/runtime/simple/external/events";

/**
 * A fire whose body arrives in two halves: the first when the sandbox starts reading it, the second when
 * `finish()` is called. Resolves `reading` once the sandbox has asked for the body.
 */
function slowFire(sandbox: Sandbox, body: unknown) {
  const text = new TextEncoder().encode(JSON.stringify(body));
  let started!: () => void;
  const reading = new Promise<void>((resolve) => (started = resolve));
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pulls++ === 0) {
        started();
        controller.enqueue(text.subarray(0, 10));
        return;
      }
      await finished;
      controller.enqueue(text.subarray(10));
      controller.close();
    },
  });
  const answer = sandbox.fetch(
    new Request(firePath, { method: "POST", headers: { "x-token": token, "content-type": "application/json" }, body: stream, duplex: "half" } as RequestInit),
  );
  return { reading, finish, answer };
}

describe("a fire whose body spans a change of the data (issue 29, point 3)", () => {
  test.each([
    ["in memory", false],
    ["with --data", true],
  ])("%s: answered against the data in place when the body is complete (404, the conversation is gone) and never recorded", async (_, withData) => {
    const data = withData ? join(scratch, "span.db") : undefined;
    const sandbox = await createSandbox({ fixture: exampleFixture(), data });
    try {
      const fire = slowFire(sandbox, { conversationId: "second-conversation", externalEventId: "order-status-changed" });
      await fire.reading;
      // The generated data has the description's example conversations, not the fixture's second one.
      expect(await sandbox.reset({ seed: "other", conversations: 5 })).toEqual({ bots: 3, conversations: 5 });
      fire.finish();
      const response = await fire.answer;
      expect(response.status).toBe(404);
      expect(((await response.json()) as { detail: string }).detail).toBe('No conversation with conversationId "second-conversation".');
      expect(await sandbox.firedEvents()).toEqual([]);
    } finally {
      await sandbox.close();
    }
    if (data) {
      const reopened = await createSandbox({ data });
      expect(await reopened.firedEvents()).toEqual([]);
      await reopened.close();
    }
  });

  test("a fire to a conversation both data have is answered and recorded once, against the new data", async () => {
    const sandbox = await createSandbox({ fixture: exampleFixture() });
    try {
      const fire = slowFire(sandbox, { conversationId: "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c", externalEventId: "order-status-changed" });
      await fire.reading;
      await sandbox.reset({ conversations: 5 });
      fire.finish();
      expect((await fire.answer).status).toBe(200);
      expect((await sandbox.firedEvents()).map((event) => event.conversationId)).toEqual(["0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c"]);
    } finally {
      await sandbox.close();
    }
  });
});

describe("bounded memory per client (issue 29, point 4)", () => {
  test("the request journal keeps no body of a request the token check refused", async () => {
    const sandbox = await createSandbox({ conversations: 2 });
    try {
      await sandbox.fetch(firePath, {
        method: "POST",
        headers: { "x-token": "wrong", "content-type": "application/json" },
        body: JSON.stringify({ secret: "x".repeat(1000) }),
      });
      await sandbox.fetch(firePath, {
        method: "POST",
        headers: { "x-token": token, "content-type": "application/json" },
        body: JSON.stringify({ conversationId: "nope", externalEventId: "e" }),
      });
      expect(sandbox.requests().map((request) => [request.status, request.body])).toEqual([
        [401, "(the body of a request without a valid token: not kept)"],
        [404, { conversationId: "nope", externalEventId: "e" }],
      ]);
    } finally {
      await sandbox.close();
    }
  });

  test(`the kept requests hold at most ${maxRecordedText} characters of text: the oldest are dropped and counted`, async () => {
    const sandbox = await createSandbox({ conversations: 2 });
    try {
      const body = JSON.stringify({ conversationId: "nope", externalEventId: "x".repeat(60_000) });
      for (let index = 0; index < 400; index++) {
        await sandbox.fetch(firePath, { method: "POST", headers: { "x-token": token, "content-type": "application/json" }, body });
      }
      const kept = sandbox.requests();
      expect(kept.length).toBeLessThan(400);
      expect(kept.length * body.length).toBeLessThanOrEqual(maxRecordedText);
      expect(kept.at(-1)!.sequence).toBe(400);
      const response = await sandbox.fetch("http://sandbox.test/_sandbox/requests", { headers: { "x-token": token } });
      expect(Number(response.headers.get("x-dropped-requests"))).toBe(400 - kept.length);
    } finally {
      await sandbox.close();
    }
  });

  test("a flood of 3,000 unauthenticated 64 kB POSTs leaves the process under 400 MiB resident, and authenticated searches are answered meanwhile", {
    timeout: 300_000,
  }, async () => {
    const sandbox = await launchSandbox(["--conversations", "50"]);
    try {
      // 64 kB of JSON that parses into 32,000 numbers: a journal that parsed and kept it held far more than 64 KiB.
      const body = `[${Array.from({ length: 32_000 }, () => "0").join(",")}]`;
      let sent = 0;
      let flooding = true;
      const flooder = async () => {
        while (sent < 3000) {
          sent++;
          const response = await fetch(`${sandbox.url}/api/v1/runtime/simple/external/events`, {
            method: "POST",
            headers: { "x-token": "not-the-token", "content-type": "application/json" },
            body,
          });
          expect(response.status).toBe(401);
          await response.arrayBuffer();
        }
      };
      const searches: number[] = [];
      const searcher = async () => {
        while (flooding) {
          const response = await fetch(`${sandbox.url}/api/v2/channels/conversations?pageSize=5`, { headers: { "x-token": token } });
          searches.push(response.status);
          await response.arrayBuffer();
        }
      };
      const searching = searcher();
      await Promise.all(Array.from({ length: 32 }, flooder));
      flooding = false;
      await searching;
      expect(searches.length).toBeGreaterThan(0);
      expect(searches.filter((status) => status !== 200)).toEqual([]);
      const status = await import("node:fs").then(({ readFileSync }) => readFileSync(`/proc/${sandbox.process.pid}/status`, "utf8"));
      const residentKiB = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
      expect(residentKiB).toBeLessThan(400 * 1024);
      expect((await fetch(`${sandbox.url}/api/v2/channels/conversations?pageSize=5`, { headers: { "x-token": token } })).status).toBe(200);
    } finally {
      await sandbox.stop();
    }
  });
});
