import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaticServer, listen, resolveFile } from "../src/server.ts";

const root = mkdtempSync(join(tmpdir(), "docs-server-"));
writeFileSync(join(root, "index.html"), "<!doctype html><title>index</title>");
writeFileSync(join(root, "redoc.standalone.js"), "export const hydrate = 1;");
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
    ["/section/errors", 200, "text/html; charset=utf-8"],
    ["/missing.js", 404, "text/plain; charset=utf-8"],
  ])("GET %s answers %i as %s", async (path, status, contentType) => {
    const response = await fetch(`${url}${path}`);
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe(contentType);
    await response.body?.cancel();
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
