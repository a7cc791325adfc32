import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { resolveFile } from "../../src/server.ts";

/**
 * A plain static host as GitHub Pages, Netlify or Cloudflare Pages behave: a file, or a folder's
 * `index.html` (a folder's address without its `/` is redirected to it), else `404.html` with status
 * 404. No fallback to `index.html`, no compression. With a `prefix` (`/some/sub/path/`), the site is
 * served under it, as a GitHub Pages project site is under `/<repo>/`, and anything outside it is a
 * bare 404. With `notFoundPage`, unknown addresses get that page instead of the root's `404.html`.
 */
export function createPlainStaticHost(root: string, prefix = "/", notFoundPage?: string): Server {
  return createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (!url.pathname.startsWith(prefix)) {
      response.writeHead(404, { "content-type": "text/plain" }).end("Outside the site\n");
      return;
    }
    const file = resolveFile(root, `/${url.pathname.slice(prefix.length)}`);
    const info = file ? await stat(file).catch(() => undefined) : undefined;
    if (info?.isDirectory() && !url.pathname.endsWith("/")) {
      response.writeHead(301, { location: `${url.pathname}/${url.search}` }).end();
      return;
    }
    const found = file && info ? (info.isDirectory() ? join(file, "index.html") : file) : undefined;
    const served =
      found &&
      (await stat(found).then(
        (found) => found.isFile(),
        () => false,
      ))
        ? found
        : join(root, "404.html");
    const type = served.endsWith(".js")
      ? "text/javascript"
      : served.endsWith(".json")
        ? "application/json"
        : served.endsWith(".txt")
          ? "text/plain"
          : served.endsWith(".md")
            ? "text/markdown"
            : served.endsWith(".yaml")
              ? "application/yaml"
              : "text/html";
    response.writeHead(served === found ? 200 : 404, { "content-type": type });
    if (served !== found && notFoundPage !== undefined) response.end(notFoundPage);
    else createReadStream(served).pipe(response);
  });
}
