import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { get, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompress } from "../src/compress.ts";
import { createStaticServer, listen, resolveFile } from "../src/server.ts";

const root = mkdtempSync(join(tmpdir(), "docs-server-"));
writeFileSync(join(root, "index.html"), "<!doctype html><title>index</title>");
writeFileSync(join(root, "redoc.standalone.js"), "export const hydrate = 1;");
writeFileSync(join(root, "404.html"), "<!doctype html><title>not found</title>");
mkdirSync(join(root, "section", "errors"), { recursive: true });
writeFileSync(join(root, "section", "errors", "index.html"), "<!doctype html><title>errors</title>");
const server = createStaticServer(root);
let url = "";
beforeAll(async () => {
  url = await listen(server, "127.0.0.1", 0);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("static server", () => {
  it.each([
    ["/", 200, "text/html; charset=utf-8"],
    ["/redoc.standalone.js", 200, "text/javascript; charset=utf-8"],
    ["/section/errors/", 200, "text/html; charset=utf-8"],
    ["/conversations/searchconversations", 404, "text/html; charset=utf-8"],
    ["/missing.js", 404, "text/plain; charset=utf-8"],
  ])("GET %s answers %i as %s", async (path, status, contentType) => {
    const response = await fetch(`${url}${path}`);
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe(contentType);
    await response.body?.cancel();
  });

  it("answers an unknown path without a file extension with 404.html, which finds the route it names", async () => {
    const response = await fetch(`${url}/conversations/searchconversations`);
    expect(await response.text()).toContain("<title>not found</title>");
  });

  it("redirects a folder's address to its / form, keeping the query, as static hosts do", async () => {
    const response = await fetch(`${url}/section/errors?from=test`, { redirect: "manual" });
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe("/section/errors/?from=test");
  });

  it("refuses methods other than GET and HEAD", async () => {
    const response = await fetch(`${url}/`, { method: "POST" });
    expect(response.status).toBe(405);
  });

  it.each(["/../package.json", "/%2e%2e/%2e%2e/etc/passwd", "/..%2fetc%2fpasswd"])("never serves a file outside the root: %s", (path) => {
    const file = resolveFile(root, path);
    expect(file === undefined || file.startsWith(root)).toBe(true);
  });
});

describe("precompressed copies", () => {
  const original = "export const viewer = 'the same bytes, compressed or not';\n".repeat(50);
  beforeAll(() => {
    writeFileSync(join(root, "viewer.js"), original);
    precompress([join(root, "viewer.js")]);
  });

  it.each([
    ["br", "br", (body: Buffer) => brotliDecompressSync(body)],
    ["gzip, deflate", "gzip", (body: Buffer) => gunzipSync(body)],
    ["gzip, deflate, br", "br", (body: Buffer) => brotliDecompressSync(body)],
    ["br;q=0, gzip", "gzip", (body: Buffer) => gunzipSync(body)],
  ])("Accept-Encoding %s gets %s, the same file once decoded", async (acceptEncoding, encoding, decode) => {
    const response = await rawGet(`${url}/viewer.js`, { "accept-encoding": acceptEncoding });
    expect(response.headers["content-encoding"]).toBe(encoding);
    expect(response.headers["vary"]).toBe("accept-encoding");
    expect(Number(response.headers["content-length"])).toBe(response.body.length);
    expect(response.body.length).toBeLessThan(Buffer.byteLength(original));
    expect(decode(response.body).toString()).toBe(original);
  });

  it("sends the file as it is when no encoding is accepted", async () => {
    const response = await rawGet(`${url}/viewer.js`, {});
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(response.body.toString()).toBe(original);
  });
});

describe("revalidation", () => {
  it("answers a repeated request with the same ETag by 304 and no body, and a changed file by 200", async () => {
    const first = await rawGet(`${url}/redoc.standalone.js`, { "accept-encoding": "gzip" });
    const etag = String(first.headers["etag"]);
    const again = await rawGet(`${url}/redoc.standalone.js`, { "accept-encoding": "gzip", "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    writeFileSync(join(root, "redoc.standalone.js"), "export const hydrate = 2; // changed");
    const changed = await rawGet(`${url}/redoc.standalone.js`, { "accept-encoding": "gzip", "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.body.toString()).toContain("changed");
  });
});

/** A GET that leaves the body as sent (fetch would decode it). */
async function rawGet(address: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(address, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject);
  });
}
