/**
 * The Node adapter of the one pipeline (`src/http/node-adapter.ts`), over a real socket on loopback: request targets
 * and Host headers the pipeline cannot read are refused with a 400 problem naming what is wrong (never a 500), an
 * absolute-form target and dot segments are read as the path they name, a HEAD gets its GET's headers and length with
 * no body, and a search's answer carries its headers and the exact length of its body.
 */
import { once } from "node:events";
import { createServer } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { hangGuardMs } from "@bot-conversation/test-support/timeouts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RequestContext } from "../src/http/context.ts";
import { answerNode } from "../src/http/node-adapter.ts";
import { type RunningSandbox, startSandboxServer } from "../src/index.ts";
import { Answer } from "../src/operations/answer.ts";
import { maxBodyBytes } from "../src/operations/context.ts";
import { readText } from "../src/operations/request.ts";
import { exampleFixture } from "./support/fixture.ts";

let server: RunningSandbox;
beforeAll(async () => {
  server = await startSandboxServer({ host: "127.0.0.1", port: 0, conversations: 5 });
});
afterAll(() => server.stop());

/** Sends raw bytes on a new connection and reads the answer until the server closes it (each request asks it to). */
function exchange(request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.setTimeout(hangGuardMs(5_000), () => socket.destroy(new Error("no answer")));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [head = "", ...rest] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") });
    });
  });
}

const search = "/api/v2/channels/conversations?pageSize=2";
const requestOf = (target: string, host = "127.0.0.1", method = "GET") =>
  `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nX-Token: sandbox-token\r\nConnection: close\r\n\r\n`;

describe("the Node adapter", () => {
  test("a search: its headers, the exact length of its body, its request id", async () => {
    const answer = await exchange(requestOf(search));
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(answer.body));
    expect(JSON.parse(answer.body)).toMatchObject({ pageSize: 2, items: [{}, {}] });
    expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("a HEAD: the GET's status, type and length, and no body", async () => {
    const get = await exchange(requestOf(search));
    const head = await exchange(requestOf(search, "127.0.0.1", "HEAD"));
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
    expect(head.headers["content-type"]).toBe("application/json");
    expect(head.body).toBe("");
  });

  test("an absolute-form target and dot segments are read as the path they name", async () => {
    const absolute = await exchange(requestOf(`http://127.0.0.1${search}`));
    const dots = await exchange(requestOf(`/api/v2/other/../channels/./conversations?pageSize=2`));
    expect([absolute.status, dots.status]).toEqual([200, 200]);
    expect(JSON.parse(absolute.body)).toMatchObject({ pageSize: 2 });
    expect(JSON.parse(dots.body)).toMatchObject({ pageSize: 2 });
  });

  test("a header is read by its name in any case, a repeated one's values joined, the first Host the one checked", async () => {
    // Every name a part of the pipeline reads, and one it reads only now and then (accept), as a client may spell them.
    const names = ["host", "x-token", "authorization", "x-request-id", "origin", "content-type", "content-length", "transfer-encoding", "accept", "x-other"];
    const seen: Record<string, string | undefined>[] = [];
    const pipeline = (c: RequestContext) => {
      seen.push(Object.fromEntries(names.map((name) => [name, c.req.header(name)])));
      return new Answer(204, null);
    };
    const echo = createServer((incoming, outgoing) => answerNode({ pipeline, options: { errorMediaType: "application/problem+json" } }, incoming, outgoing));
    echo.listen(0, "127.0.0.1");
    await once(echo, "listening");
    const port = (echo.address() as AddressInfo).port;
    const send = (head: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () => socket.end(`${head}Connection: close\r\n\r\n`));
        let text = "";
        socket.setTimeout(hangGuardMs(5_000), () => socket.destroy(new Error("no answer")));
        socket.on("data", (chunk: Buffer) => {
          text += chunk.toString("latin1");
        });
        socket.on("error", reject);
        socket.on("close", () => resolve(text.slice(0, text.indexOf("\r\n"))));
      });
    try {
      const statuses = [
        await send(
          "POST / HTTP/1.1\r\nHOST: 127.0.0.1\r\nX-Token: a\r\nAuthorization: Bearer b\r\nX-REQUEST-ID: c\r\nx-request-id: d\r\nOrigin: http://e\r\n" +
            "Content-Type: text/plain\r\nContent-Length: 0\r\nACCEPT: f\r\naccept: g\r\nX-Other: h\r\n",
        ),
        await send("GET / HTTP/1.1\r\nhost: localhost\r\nx-token: a\r\nX-Token: b\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n"),
        // Node's server reads the first Host of two: that one is checked, and both are what the header holds.
        await send("GET / HTTP/1.1\r\nHost: localhost\r\nHost: bad host\r\n"),
        await send("GET / HTTP/1.1\r\nHost: bad host\r\nHost: localhost\r\n"),
      ];
      expect(statuses).toEqual(["HTTP/1.1 204 No Content", "HTTP/1.1 204 No Content", "HTTP/1.1 204 No Content", "HTTP/1.1 400 Bad Request"]);
      const none = Object.fromEntries(names.map((name) => [name, undefined]));
      expect(seen).toEqual([
        {
          ...none,
          host: "127.0.0.1",
          "x-token": "a",
          authorization: "Bearer b",
          "x-request-id": "c, d",
          origin: "http://e",
          "content-type": "text/plain",
          "content-length": "0",
          accept: "f, g",
          "x-other": "h",
        },
        { ...none, host: "localhost", "x-token": "a, b", "transfer-encoding": "chunked" },
        { ...none, host: "localhost, bad host" },
      ]);
    } finally {
      await new Promise((resolve) => echo.close(resolve));
    }
  });

  test("requests that repeat the last one's target or Host, or differ from it in one: each read, checked and answered as itself", async () => {
    const [first, badHost, again, other, refused] = await [
      requestOf(search),
      requestOf(search, "bad host"),
      requestOf(search),
      requestOf("/api/v2/channels/conversations?pageSize=3"),
      requestOf("/api/v2/channels/../../conversations"),
    ].reduce<Promise<Awaited<ReturnType<typeof exchange>>[]>>(async (answers, request) => [...(await answers), await exchange(request)], Promise.resolve([]));
    expect([first, badHost, again, other, refused].map((answer) => answer!.status)).toEqual([200, 400, 200, 200, 404]);
    expect(again!.body).toBe(first!.body);
    for (const answer of [first, badHost, again, other, refused]) expect(Number(answer!.headers["content-length"])).toBe(Buffer.byteLength(answer!.body));
    expect(JSON.parse(other!.body)).toMatchObject({ pageSize: 3 });
    expect(JSON.parse(refused!.body)).toMatchObject({ status: 404, detail: "No route GET /api/conversations." });
  });

  test.each([
    ["a Host that names no host", requestOf(search, "bad host"), "The Host header is not a host name."],
    ["a backslash in the path", requestOf("/api\\v2/channels/conversations"), "The request path must not hold a backslash."],
    [
      "the asterisk form (OPTIONS *), neither a path nor a URL",
      requestOf("*", "127.0.0.1", "OPTIONS"),
      "The request target must be a path (starting with /) or an absolute URL.",
    ],
    ["a target Node's parser refuses", requestOf("api/v2/channels/conversations"), "The request is not valid HTTP/1.1."],
  ])("%s: a 400 problem saying so", async (_name, request, detail) => {
    const answer = await exchange(request);
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toBe(server.sandbox.options.errorMediaType);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 400, detail });
  });
});

/**
 * A request body read from Node's `IncomingMessage` itself (no `Request`, no web stream): whole within the limit,
 * refused past it with the rest read and dropped (so the connection goes on), and a body the client stops sending
 * noted in the journal, never a hang.
 */
describe("request bodies over Node's HTTP server", () => {
  let bodies: RunningSandbox;
  beforeAll(async () => {
    bodies = await startSandboxServer({ host: "127.0.0.1", port: 0, fixture: exampleFixture() });
  });
  afterAll(() => bodies.stop());

  const firePath = "/api/v1/runtime/simple/external/events";
  const exampleConversationId = "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c";
  const fire = JSON.stringify({ conversationId: exampleConversationId, externalEventId: "order-status-changed", externalEventPayload: { orderNumber: "1" } });
  const head = (framing: string) =>
    `POST ${firePath} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Token: sandbox-token\r\nContent-Type: application/json\r\n${framing}\r\n`;
  const sized = (body: string) => `${head(`Content-Length: ${Buffer.byteLength(body)}\r\n`)}${body}`;
  const chunked = (body: string) => `${head("Transfer-Encoding: chunked\r\n")}${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
  const overLimit = JSON.stringify({ conversationId: exampleConversationId, externalEventId: "x", padding: "x".repeat(maxBodyBytes.operation) });

  /** One kept-alive connection: each request written, its answer read by its `Content-Length`. */
  async function keptAlive(): Promise<{ ask(request: string): Promise<{ status: number; body: string }>; close(): void }> {
    const { hostname, port } = new URL(bodies.url);
    const socket = connect(Number(port), hostname);
    await once(socket, "connect");
    socket.setTimeout(hangGuardMs(5_000), () => socket.destroy(new Error("no answer")));
    let received = Buffer.alloc(0);
    let waiting: (() => void) | undefined;
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      waiting?.();
    });
    const closed = new Promise<never>((_resolve, reject) => socket.on("close", () => reject(new Error("the server closed the connection"))));
    closed.catch(() => undefined);
    const answer = async (): Promise<{ status: number; body: string }> => {
      for (;;) {
        const end = received.indexOf("\r\n\r\n");
        if (end >= 0) {
          const headText = received.subarray(0, end).toString("latin1");
          const length = Number(/\r\ncontent-length: *(\d+)/i.exec(headText)?.[1] ?? 0);
          if (received.length >= end + 4 + length) {
            const body = received.subarray(end + 4, end + 4 + length).toString("utf8");
            received = received.subarray(end + 4 + length);
            return { status: Number(headText.split(" ")[1]), body };
          }
        }
        await Promise.race([new Promise<void>((resolve) => (waiting = resolve)), closed]);
      }
    };
    return {
      ask: (request) => {
        socket.write(request);
        return answer();
      },
      close: () => socket.destroy(),
    };
  }

  test.each([
    ["with its Content-Length", sized],
    ["chunked, its length unknown until read", chunked],
  ])("a body over the limit, %s: a 413, and the next requests on the same connection are answered", async (_name, framed) => {
    const connection = await keptAlive();
    try {
      const refused = await connection.ask(framed(overLimit));
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body)).toMatchObject({
        errors: [{ path: "$", message: `must be at most ${maxBodyBytes.operation} bytes (the sandbox's limit)` }],
      });
      expect(await connection.ask(framed(fire))).toEqual({ status: 200, body: "" });
      expect((await connection.ask(requestOf(search).replace("Connection: close\r\n", ""))).status).toBe(200);
    } finally {
      connection.close();
    }
  });

  test("a body in many chunks is read whole: fired, and journaled as sent", async () => {
    const connection = await keptAlive();
    try {
      const payload = { orderNumber: "ü".repeat(5000) };
      const body = JSON.stringify({ conversationId: exampleConversationId, externalEventId: "order-status-changed", externalEventPayload: payload });
      const pieces = body.match(/[\s\S]{1,777}/g)!;
      const framed = `${head("Transfer-Encoding: chunked\r\n")}${pieces.map((piece) => `${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`).join("")}0\r\n\r\n`;
      expect(await connection.ask(framed)).toEqual({ status: 200, body: "" });
      expect((await bodies.sandbox.firedEvents()).at(-1)?.externalEventPayload).toEqual(payload);
      expect(bodies.sandbox.requests({ method: "POST" }).at(-1)?.body).toEqual(JSON.parse(body));
    } finally {
      connection.close();
    }
  });

  test("a client that stops sending its body: the request is journaled with a note, and the sandbox answers the next", async () => {
    const { hostname, port } = new URL(bodies.url);
    const before = bodies.sandbox.requests({ method: "POST" }).length;
    const socket = connect(Number(port), hostname);
    await once(socket, "connect");
    socket.write(`${head("Content-Length: 1000\r\n")}{"conversationId":`);
    // The connection closed while the body is awaited: nothing tells the test when the server saw it, so the journal
    // is looked at until the request is in it (the guard only against a hang).
    socket.destroy();
    const until = Date.now() + hangGuardMs(5_000);
    while (bodies.sandbox.requests({ method: "POST" }).length === before) {
      if (Date.now() > until) throw new Error("the cut-off request was never journaled");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(bodies.sandbox.requests({ method: "POST" }).at(-1)).toMatchObject({
      status: 400,
      body: "(a body that could not be read: the client stopped sending it)",
    });
    const connection = await keptAlive();
    try {
      expect(await connection.ask(sized(fire))).toEqual({ status: 200, body: "" });
    } finally {
      connection.close();
    }
  });
});

describe("a body and the Fetch Request of a recording's replay, in either order", () => {
  /** A server whose pipeline reads the body through the transport's reader and through its `Request`, in the order given. */
  async function serving(order: "body first" | "request first"): Promise<{ url: string; close(): Promise<void> }> {
    const pipeline = async (c: RequestContext) => {
      const seen =
        order === "body first"
          ? { body: await readText(c.req.body, 1024), request: await c.req.raw.text() }
          : { request: await c.req.raw.clone().text(), body: await readText(c.req.body, 1024) };
      return new Answer(200, JSON.stringify(seen), ["content-type", "application/json"]);
    };
    const server = createServer((incoming, outgoing) => answerNode({ pipeline, options: { errorMediaType: "application/problem+json" } }, incoming, outgoing));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => new Promise((resolve) => server.close(() => resolve())),
    };
  }

  test.each(["body first", "request first"] as const)("%s: both read the same text", async (order) => {
    const served = await serving(order);
    try {
      const body = `{"text":"é ${order}"}`;
      const answer = await fetch(`${served.url}/any`, { method: "POST", body, headers: { "content-type": "application/json" } });
      expect(await answer.json()).toEqual({ body, request: body });
    } finally {
      await served.close();
    }
  });
});
