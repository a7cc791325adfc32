import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { extname, join, normalize } from "node:path";
import { type LoopbackServer, listenOnLoopback } from "@bot-conversation/test-support/loopback";

/** Content types of what `vite build` writes. */
const types: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml" };

/** The built app served on 127.0.0.1 with an ephemeral port. */
export type StaticSite = LoopbackServer;

/** Serves the files of `root` (a missing file is a 404; `/` is `index.html`), like any static host would serve `dist/`. */
export async function serveStatic(root: string): Promise<StaticSite> {
  const server: Server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://site.invalid").pathname)).replace(/^(\.\.[/\\])+/, "");
    const file = join(root, path.endsWith("/") ? `${path}index.html` : path);
    try {
      const body = await readFile(file);
      response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  return listenOnLoopback(server);
}
