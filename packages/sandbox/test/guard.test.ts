import { request } from "node:http";
import { afterAll, describe, expect, test } from "vitest";
import { createSandbox, launchSandbox, startSandboxServer } from "../src/index.ts";
import { responseProblems } from "./support/description.ts";

const server = await startSandboxServer({ host: "127.0.0.1", port: 0, conversations: 5 });
afterAll(() => server.stop());
const { port } = new URL(server.url);

/** One request over loopback with exactly these headers (fetch may not set `Host`): status, headers and body. */
function send(
  path: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
  to = port,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: "127.0.0.1", port: to, path, method, headers }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    sent.on("error", reject);
    sent.end(body);
  });
}
const token = { "x-token": "sandbox-token" };
const preflight = (origin: string, path = "/_sandbox/reset") =>
  send(path, "OPTIONS", {
    origin,
    "access-control-request-method": "POST",
    "access-control-request-headers": "x-token, content-type",
    "access-control-request-private-network": "true",
  });
const conversations = async () =>
  ((await (await fetch(`${server.url}/_sandbox/bots`, { headers: token })).json()) as { conversations: number }[]).reduce(
    (sum, bot) => sum + bot.conversations,
    0,
  );

describe("the control API is for the developer, not for any web page (issue 29, point 5)", () => {
  test("a preflight from https://evil.example to /_sandbox/reset is refused: no CORS headers, no Private Network Access", async () => {
    const answer = await preflight("https://evil.example");
    expect(answer.status).toBe(403);
    expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
    expect(answer.headers["access-control-allow-private-network"]).toBeUndefined();
    expect(JSON.parse(answer.body)).toMatchObject({ status: 403, detail: expect.stringContaining('got Origin "https://evil.example"') });
  });

  test("a reset sent by a page of https://evil.example is refused and changes nothing", async () => {
    const answer = await send(
      "/_sandbox/reset",
      "POST",
      { ...token, origin: "https://evil.example", "content-type": "application/json" },
      '{"conversations":1}',
    );
    expect(answer.status).toBe(403);
    expect(await conversations()).toBe(5);
  });

  test("a request to /_sandbox/reset with Host: evil.example (DNS rebinding) is refused with a problem body, and changes nothing", async () => {
    const answer = await send("/_sandbox/reset", "POST", { ...token, host: "evil.example", "content-type": "application/json" }, '{"conversations":1}');
    expect(answer.status).toBe(403);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(answer.body)).toEqual({
      type: "about:blank",
      title: "Forbidden",
      status: 403,
      detail:
        'The control API answers only a loopback Host (localhost, 127.0.0.1, [::1]) or a name given with --allow-host (allowHosts); got Host "evil.example".',
    });
    expect((await send("/_sandbox/fired-events", "GET", { ...token, host: "evil.example:4011" })).status).toBe(403);
    expect(await conversations()).toBe(5);
  });

  test("loopback origins and Host names are answered, with CORS and Private Network Access", async () => {
    for (const origin of ["http://localhost:5173", "http://127.0.0.1:8080", "http://[::1]:3000", "https://app.localhost"]) {
      const answer = await preflight(origin);
      expect(answer.status, origin).toBe(204);
      expect(answer.headers["access-control-allow-origin"]).toBe(origin);
      expect(answer.headers["access-control-allow-private-network"]).toBe("true");
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, "api.localhost"]) {
      expect((await send("/_sandbox/bots", "GET", { ...token, host })).status, host).toBe(200);
    }
  });

  test("the service's three operations keep answering any origin, Private Network Access preflights included", async () => {
    const answer = await preflight("https://evil.example", "/api/v1/runtime/simple/external/events");
    expect(answer.status).toBe(204);
    expect(answer.headers["access-control-allow-origin"]).toBe("https://evil.example");
    expect(answer.headers["access-control-allow-private-network"]).toBe("true");
    const search = await send("/api/v2/channels/conversations?pageSize=1", "GET", { ...token, origin: "https://evil.example", host: "evil.example" });
    expect(search.status).toBe(200);
    expect(search.headers["access-control-allow-origin"]).toBe("https://evil.example");
  });

  test("in process, where no other machine or page can reach it, the control API answers any Host and origin", async () => {
    const sandbox = await createSandbox({ conversations: 2 });
    try {
      const response = await sandbox.fetch("http://sandbox.invalid/_sandbox/bots", { headers: { ...token, origin: "https://evil.example" } });
      expect(response.status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });

  test("--allow-origin and --allow-host add an origin and a name (the way to reach a sandbox from another machine on purpose)", async () => {
    const opened = await launchSandbox(["--conversations", "3", "--allow-origin", "https://app.example.com", "--allow-host", "sandbox.internal"]);
    try {
      const to = new URL(opened.url).port;
      const allowed = await send(
        "/_sandbox/reset",
        "OPTIONS",
        {
          host: "sandbox.internal:4011",
          origin: "https://app.example.com",
          "access-control-request-method": "POST",
          "access-control-request-private-network": "true",
        },
        undefined,
        to,
      );
      expect(allowed.status).toBe(204);
      expect(allowed.headers["access-control-allow-origin"]).toBe("https://app.example.com");
      expect(allowed.headers["access-control-allow-private-network"]).toBe("true");
      expect((await send("/_sandbox/bots", "GET", { ...token, host: "sandbox.internal" }, undefined, to)).status).toBe(200);
      expect((await send("/_sandbox/bots", "GET", { ...token, host: "other.internal" }, undefined, to)).status).toBe(403);
      expect((await send("/_sandbox/bots", "GET", { ...token, origin: "https://other.example.com" }, undefined, to)).status).toBe(403);
    } finally {
      await opened.stop();
    }
  });

  test("createSandbox takes allowOrigins and allowHosts, checked", async () => {
    const served = await startSandboxServer({
      host: "127.0.0.1",
      port: 0,
      conversations: 1,
      allowOrigins: ["https://app.example.com"],
      allowHosts: ["sandbox.internal"],
    });
    try {
      const to = new URL(served.url).port;
      expect((await send("/_sandbox/bots", "GET", { ...token, host: "sandbox.internal", origin: "https://app.example.com" }, undefined, to)).status).toBe(200);
    } finally {
      await served.stop();
    }
    await expect(createSandbox({ allowOrigins: ["app.example.com"] })).rejects.toThrow(
      'allowOrigins: expected an origin such as https://app.example.com; got "app.example.com"',
    );
  });

  test("the 403 is documented for every control operation", async () => {
    const answer = await send("/_sandbox/bots", "GET", { ...token, host: "evil.example" });
    const response = new Response(answer.body, { status: answer.status, headers: { "content-type": String(answer.headers["content-type"]) } });
    expect(await responseProblems("listSandboxBots", response)).toEqual([]);
  });
});
