import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { type AddressInfo, connect, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { selfSignedCertificate } from "@bot-conversation/test-support/tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { check } from "./support/command.ts";
import { type FaultyProxy, startFaultyProxy } from "./support/faulty-proxy.ts";
import { useSandbox } from "./support/sandbox.ts";

const sandbox = useSandbox();
const token = "sandbox-token";
const short = ["--token", token, "--rate", "0", "--max-requests", "20", "--seed", "1"];

const listen = async (server: Server): Promise<string> => {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

/** Answers a node:http request from the sandbox's fetch. */
async function serve(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
  const response = await sandbox().fetch(new Request(`http://sandbox.test${incoming.url ?? "/"}`, { method: incoming.method ?? "GET", headers }));
  outgoing.writeHead(response.status, Object.fromEntries(response.headers)).end(await response.text());
}

describe("transport: TLS and a proxy", () => {
  let directory: string;
  let https: Server;
  let httpsUrl: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "conformance-tls-"));
    const certificate = await selfSignedCertificate();
    await writeFile(join(directory, "cert.pem"), certificate.cert);
    await writeFile(join(directory, "key.pem"), certificate.key);
    https = createHttpsServer(certificate, (incoming, outgoing) => void serve(incoming, outgoing));
    httpsUrl = `https://${await listen(https)}`;
  });
  afterAll(async () => {
    await close(https);
    await rm(directory, { recursive: true, force: true });
  });

  it("a self-signed certificate is refused (exit 2), trusted with --ca-cert, skipped with --insecure", async () => {
    const refused = await check(["--base-url", httpsUrl, ...short]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/unreachable.*(self[- ]signed|certificate)/i);
    const trusted = await check(["--base-url", httpsUrl, "--ca-cert", join(directory, "cert.pem"), ...short]);
    expect(trusted.stdout).toContain("20 requests");
    expect(trusted.code).toBe(0);
    expect((await check(["--base-url", httpsUrl, "--insecure", ...short])).code).toBe(0);
  });

  it("--ca-cert names a file that is no certificate: exit 2", async () => {
    const run = await check(["--base-url", httpsUrl, "--ca-cert", join(directory, "key.pem"), ...short]);
    expect(run).toMatchObject({ code: 2, stderr: expect.stringContaining("expected PEM certificates") });
  });

  it("--proxy sends every request through the proxy", async () => {
    let upstream: FaultyProxy | undefined;
    const tunnels: string[] = [];
    const proxy = createHttpServer((_, outgoing) => outgoing.writeHead(405).end());
    proxy.on("connect", (request: IncomingMessage, socket, head: Buffer) => {
      tunnels.push(request.url ?? "");
      const [host, port] = (request.url ?? "").split(":");
      const target = connect(Number(port), host!, () => {
        socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        target.write(head);
        target.pipe(socket);
        socket.pipe(target);
      });
      target.on("error", () => socket.destroy());
      socket.on("error", () => target.destroy());
    });
    const proxyAddress = await listen(proxy);
    try {
      upstream = await startFaultyProxy({ baseUrl: "http://sandbox.test", fetch: sandbox().fetch });
      const run = await check(["--base-url", upstream.url, "--proxy", `http://${proxyAddress}`, ...short]);
      expect(run.code).toBe(0);
      expect(tunnels.length).toBeGreaterThan(0);
      expect(new Set(tunnels)).toEqual(new Set([new URL(upstream.url).host]));
    } finally {
      proxy.closeAllConnections();
      await close(proxy);
      await upstream?.close();
    }
  });
});
