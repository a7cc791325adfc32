import { describe, expect, test } from "vitest";
import { maxRecordedRequests, maxRecordedText, type ReceivedRequest, RequestJournal } from "../src/http/journal.ts";

/** A request as the server hands it to the journal, with Node's raw header list. */
const received = (index: number, overrides: Partial<ReceivedRequest> = {}): ReceivedRequest => ({
  receivedAt: Date.UTC(2026, 10, 26, 10) + index,
  method: "POST",
  target: `/api/v1/runtime/simple/external/events?n=${index}`,
  path: "/api/v1/runtime/simple/external/events",
  headers: ["Host", "127.0.0.1:4011", "X-Token", "sandbox-token", "Accept", "text/plain", "accept", "application/json", "Content-Type", "application/json"],
  body: { text: JSON.stringify({ n: index }) },
  status: 200,
  durationMs: 0.25,
  ...overrides,
});

describe("the request journal", () => {
  test("past maxRecordedRequests the oldest are dropped and counted; the rest keep their order, sequence and every field", () => {
    const journal = new RequestJournal();
    for (let index = 1; index <= maxRecordedRequests + 50; index++) journal.add(received(index), "fireExternalEvent");
    const kept = journal.list();
    expect(kept).toHaveLength(maxRecordedRequests);
    expect(journal.dropped).toBe(50);
    expect(kept[0]!.sequence).toBe(51);
    expect(kept.at(-1)).toEqual({
      sequence: maxRecordedRequests + 50,
      receivedAt: new Date(Date.UTC(2026, 10, 26, 10) + maxRecordedRequests + 50).toISOString(),
      method: "POST",
      path: "/api/v1/runtime/simple/external/events",
      query: { n: String(maxRecordedRequests + 50) },
      // Names in lower case and in order, a repeated one's values joined, the token left out.
      headers: { accept: "text/plain, application/json", "content-type": "application/json", host: "127.0.0.1:4011" },
      body: { n: maxRecordedRequests + 50 },
      status: 200,
      durationMs: 0.25,
    });
  });

  test("texts past ASCII and bodies larger than a chunk of the journal's store are read back as added, before and after the oldest are dropped", () => {
    const journal = new RequestJournal();
    const text = (index: number) => `«${index}» Ünïcödé 🤖 ${"é".repeat(index % 7)}`;
    const large = (index: number) => `${index}:${"ж".repeat(150_000)}`;
    const request = (index: number) =>
      received(index, {
        path: `/api/v1/runtime/simple/external/events/${text(index)}`,
        headers: ["X-Note", text(index)],
        body: { text: index % 500 === 0 ? large(index) : text(index) },
      });
    const total = maxRecordedRequests + 1_234;
    for (let index = 1; index <= total; index++) journal.add(request(index), "fireExternalEvent");
    const kept = journal.list();
    expect(journal.dropped + kept.length).toBe(total);
    for (const record of kept) {
      expect(record.path).toBe(`/api/v1/runtime/simple/external/events/${text(record.sequence)}`);
      expect(record.headers).toEqual({ "x-note": text(record.sequence) });
      expect(record.body).toBe(record.sequence % 500 === 0 ? large(record.sequence) : text(record.sequence));
    }
    expect(kept.at(-1)?.sequence).toBe(total);
  });

  test("requests that repeat the last one's headers, target or path, or differ from it in one value, are each read back as sent", () => {
    const journal = new RequestJournal();
    const headers = (accept: string) => ["Host", "127.0.0.1:4011", "X-Token", "sandbox-token", "Accept", accept];
    const targetOf = (query: string) => `/api/v2/channels/conversations${query}`;
    const sent: { headers: readonly string[] | Headers; target: string; path: string }[] = [
      { headers: headers("application/json"), target: targetOf(""), path: "/api/v2/channels/conversations" },
      // The same texts in new strings, as Node's parser makes them for each request.
      { headers: headers("application/json").map((text) => `${text} `.trimEnd()), target: targetOf(""), path: "/api/v2/channels/conversations" },
      // One value differs; then one name; then a header more.
      { headers: headers("text/plain"), target: targetOf("?limit=1"), path: "/api/v2/channels/conversations" },
      {
        headers: ["Host", "127.0.0.1:4011", "X-Token", "sandbox-token", "Accept-Language", "text/plain"],
        target: targetOf("?limit=1"),
        path: "/api/v2/channels/conversations",
      },
      { headers: [...headers("text/plain"), "X-Request-Id", "a"], target: targetOf("?limit=1"), path: "/api/v2/channels/conversations" },
      // A Fetch transport's Headers between two raw lists equal to each other, then no header at all.
      { headers: new Headers({ accept: "application/xml" }), target: targetOf("?limit=2"), path: "/api/v2/channels/conversations" },
      { headers: [...headers("text/plain"), "X-Request-Id", "a"], target: targetOf("?limit=2"), path: "/api/v2/channels/other" },
      { headers: [], target: targetOf(""), path: "/api/v2/channels/conversations" },
    ];
    for (const [index, request] of sent.entries()) journal.add(received(index, { ...request, method: "GET", body: null }), "searchConversations");
    expect(journal.list().map(({ headers, query, path }) => ({ headers, query, path }))).toEqual([
      { headers: { accept: "application/json", host: "127.0.0.1:4011" }, query: {}, path: "/api/v2/channels/conversations" },
      { headers: { accept: "application/json", host: "127.0.0.1:4011" }, query: {}, path: "/api/v2/channels/conversations" },
      { headers: { accept: "text/plain", host: "127.0.0.1:4011" }, query: { limit: "1" }, path: "/api/v2/channels/conversations" },
      { headers: { "accept-language": "text/plain", host: "127.0.0.1:4011" }, query: { limit: "1" }, path: "/api/v2/channels/conversations" },
      { headers: { accept: "text/plain", host: "127.0.0.1:4011", "x-request-id": "a" }, query: { limit: "1" }, path: "/api/v2/channels/conversations" },
      { headers: { accept: "application/xml" }, query: { limit: "2" }, path: "/api/v2/channels/conversations" },
      { headers: { accept: "text/plain", host: "127.0.0.1:4011", "x-request-id": "a" }, query: { limit: "2" }, path: "/api/v2/channels/other" },
      { headers: {}, query: {}, path: "/api/v2/channels/conversations" },
    ]);
  });

  test("filters by method, path, status and operation; a body is kept as it came, whatever it holds", () => {
    const journal = new RequestJournal();
    journal.add(received(1, { body: { text: "not json \u0000 with a NUL\u0000" }, status: 400 }), "fireExternalEvent");
    journal.add(
      received(2, {
        method: "GET",
        target: "/api/v2/channels/conversations?status=Active",
        path: "/api/v2/channels/conversations",
        body: null,
        headers: [],
      }),
      "searchConversations",
    );
    journal.add(received(3, { body: { note: "(a note)" }, status: 401 }), undefined);
    journal.add(received(4, { headers: new Headers({ "x-token": "sandbox-token", "content-type": "application/json" }) }), "fireExternalEvent");
    expect(journal.list({ status: 400 }).map((record) => record.body)).toEqual(["not json \u0000 with a NUL\u0000"]);
    expect(journal.list({ method: "get" })).toMatchObject([{ sequence: 2, headers: {}, body: null, query: { status: "Active" } }]);
    expect(journal.list({ path: "/api/v2/channels/conversations" }).map((record) => record.sequence)).toEqual([2]);
    expect(journal.list({ operationId: "fireExternalEvent" }).map((record) => record.sequence)).toEqual([1, 4]);
    expect(journal.list({ status: 401 }).map((record) => record.body)).toEqual(["(a note)"]);
    expect(journal.list({ status: 200, method: "POST" })).toMatchObject([{ sequence: 4, headers: { "content-type": "application/json" }, body: { n: 4 } }]);
    journal.clear();
    expect(journal.list()).toEqual([]);
    journal.add(received(5), undefined);
    expect(journal.list().map((record) => record.sequence)).toEqual([5]);
  });

  test(`past maxRecordedText characters the oldest are dropped, however few are kept`, () => {
    const journal = new RequestJournal();
    const large = "x".repeat(maxRecordedText / 4);
    for (let index = 1; index <= 10; index++) journal.add(received(index, { body: { text: large } }), undefined);
    const kept = journal.list();
    expect(kept.length).toBeLessThan(4);
    expect(kept.at(-1)!.sequence).toBe(10);
    expect(journal.dropped).toBe(10 - kept.length);
  });

  test("slots freed by large bodies are taken again, and past maxRecordedRequests every request is read back in order", () => {
    const journal = new RequestJournal();
    const large = "x".repeat(maxRecordedText / 4);
    // Large bodies first: the oldest are dropped by size while few slots are made, so the ring wraps before it is full.
    for (let index = 1; index <= 6; index++) journal.add(received(index, { body: { text: `${index}${large}` } }), undefined);
    const total = 6 + maxRecordedRequests + 25;
    for (let index = 7; index <= total; index++) journal.add(received(index), "fireExternalEvent");
    const kept = journal.list();
    expect(kept).toHaveLength(maxRecordedRequests);
    expect(journal.dropped).toBe(total - maxRecordedRequests);
    expect(kept.map((record) => record.sequence)).toEqual(Array.from({ length: maxRecordedRequests }, (_, index) => total - maxRecordedRequests + 1 + index));
    for (const record of kept) {
      expect(record.body).toEqual({ n: record.sequence });
      expect(record.query).toEqual({ n: String(record.sequence) });
    }
  });

  test("through many times its budget, every request kept is read back whole, and the newest are the ones kept", () => {
    const journal = new RequestJournal();
    const bodyOf = (index: number) => `${index}:${"é日x".repeat(4000 + (index % 7) * 1500)}`;
    const total = 3000;
    for (let index = 1; index <= total; index++) journal.add(received(index, { body: { text: bodyOf(index) } }), undefined);
    const kept = journal.list();
    expect(kept.length).toBeGreaterThan(100);
    expect(journal.dropped + kept.length).toBe(total);
    expect(kept.map((record) => record.sequence)).toEqual(Array.from({ length: kept.length }, (_, index) => total - kept.length + 1 + index));
    for (const record of kept) expect(record.body).toBe(bodyOf(record.sequence));
    expect(kept.reduce((characters, record) => characters + (record.body as string).length, 0)).toBeLessThanOrEqual(maxRecordedText);
  });

  test("no header that carries a secret is kept, whatever its case: X-Token, Authorization, Proxy-Authorization, Cookie, Set-Cookie", () => {
    const journal = new RequestJournal();
    const secrets = ["X-Token", "t-1", "Authorization", "Bearer t-2", "proxy-authorization", "Basic t-3", "COOKIE", "s=t-4", "Set-Cookie", "v=t-5"];
    journal.add(received(1, { headers: [...secrets, "Accept", "application/json"] }), "fireExternalEvent");
    const [kept] = journal.list();
    expect(kept!.headers).toEqual({ accept: "application/json" });
    expect(JSON.stringify(kept)).not.toMatch(/t-[1-5]/);
  });
});
