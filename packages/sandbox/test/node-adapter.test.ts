/**
 * The Node adapter of the one pipeline (`src/http/node-adapter.ts`), over a real socket on loopback: request targets
 * and Host headers the pipeline cannot read are refused with a 400 problem naming what is wrong (never a 500), an
 * absolute-form target and dot segments are read as the path they name, a HEAD gets its GET's headers and length with
 * no body, and a search's answer carries its headers and the exact length of its body.
 */
import { connect } from "node:net";
import { hangGuardMs } from "@bot-conversation/test-support/timeouts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSandbox, startSandboxServer } from "../src/index.ts";

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
