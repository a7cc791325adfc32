import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { resolveFile } from "../../src/server.ts";

/**
 * A plain static host as GitHub Pages, Netlify or Cloudflare Pages behave: a file, or a folder's
 * `index.html`, else `404.html` with status 404. No fallback to `index.html`, no compression.
 */
export function createPlainStaticHost(root: string): Server {
  return createServer(async (request, response) => {
    const file = resolveFile(root, request.url ?? "/");
    const found = file ? await stat(file).then((info) => (info.isDirectory() ? join(file, "index.html") : file), () => undefined) : undefined;
    const served = found && (await stat(found).then((info) => info.isFile(), () => false)) ? found : join(root, "404.html");
    const type = served.endsWith(".js") ? "text/javascript" : served.endsWith(".json") ? "application/json" : "text/html";
    response.writeHead(served === found ? 200 : 404, { "content-type": type });
    createReadStream(served).pipe(response);
  });
}
