import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { extname, join, normalize, sep } from "node:path";
import { precompressedEncodings } from "./compress.ts";
import { withReferenceBase } from "./not-found.ts";

/** Content types of the files the site is made of. */
const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".yaml": "application/yaml; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** The precompressed copy of `file` to send for an `Accept-Encoding` header, if the build wrote one the client takes. */
export async function precompressedCopy(
  file: string,
  acceptEncoding: string | undefined,
): Promise<{ file: string; encoding: string; size: number } | undefined> {
  const accepted = new Set(
    (acceptEncoding ?? "")
      .split(",")
      .map((part) =>
        part
          .trim()
          .toLowerCase()
          .split(/\s*;\s*/),
      )
      .filter(([, quality]) => !/^q=0(\.0*)?$/.test(quality ?? ""))
      .map(([name]) => name),
  );
  for (const { encoding, extension } of precompressedEncodings) {
    if (!accepted.has(encoding)) continue;
    const info = await stat(`${file}${extension}`).catch(() => undefined);
    if (info?.isFile()) return { file: `${file}${extension}`, encoding, size: info.size };
  }
  return undefined;
}

/** Maps a request path to a file under `root`, or `undefined` when it would leave `root`. */
export function resolveFile(root: string, requestUrl: string): string | undefined {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(requestUrl, "http://localhost").pathname);
  } catch {
    return undefined;
  }
  if (pathname.endsWith("/")) pathname += "index.html";
  const file = normalize(join(root, pathname));
  return file.startsWith(normalize(root.endsWith(sep) ? root : root + sep)) ? file : undefined;
}

/**
 * A static file server for a built site: GET and HEAD only, `index.html` for directories, no
 * listing; the build's precompressed copies (`.br`, `.gz`) when the client accepts them. As static
 * hosts do, a directory's address without its `/` is redirected to it (the redirect pages count
 * their relative target from there), and an unknown path without a file extension gets `404.html`,
 * which finds the route it names.
 */
export function createStaticServer(root: string): Server {
  return createServer(async (request, response) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    let file = resolveFile(root, request.url ?? "/");
    let info = file ? await stat(file).catch(() => undefined) : undefined;
    if (file && info?.isDirectory()) {
      const { pathname, search } = new URL(request.url ?? "/", "http://localhost");
      response.writeHead(301, { location: `${pathname}/${search}` }).end();
      return;
    }
    let status = 200;
    if (file && !info?.isFile() && extname(file) === "") {
      file = join(root, "404.html");
      info = await stat(file).catch(() => undefined);
      status = 404;
    }
    if (!file || !info?.isFile()) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found\n");
      return;
    }
    if (status === 404) {
      // This server serves the site at its root: the not-found page is told so, and finds its links with no request.
      const page = Buffer.from(withReferenceBase(await readFile(file, "utf8"), "/"));
      response.writeHead(404, {
        "content-type": "text/html; charset=utf-8",
        "content-length": page.byteLength,
        "cache-control": "no-cache",
        "x-content-type-options": "nosniff",
      });
      response.end(request.method === "HEAD" ? undefined : page);
      return;
    }
    const compressed = await precompressedCopy(file, request.headers["accept-encoding"]);
    // "no-cache" makes the browser ask again; the ETag lets it keep its copy (a 304, no body) until the file changes.
    const etag = `"${info.size.toString(36)}-${info.mtimeMs.toString(36)}-${compressed?.encoding ?? "identity"}"`;
    if (status === 200 && request.headers["if-none-match"] === etag) {
      response.writeHead(304, { etag, vary: "accept-encoding", "cache-control": "no-cache" }).end();
      return;
    }
    response.writeHead(status, {
      etag,
      "content-type": contentTypes[extname(file)] ?? "application/octet-stream",
      "content-length": compressed?.size ?? info.size,
      ...(compressed ? { "content-encoding": compressed.encoding } : {}),
      vary: "accept-encoding",
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
    });
    if (request.method === "HEAD") response.end();
    else createReadStream(compressed?.file ?? file).pipe(response);
  });
}

/** Starts `server` on `host`:`port` (0 for an ephemeral port) and resolves with its URL. */
export async function listen(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("server has no TCP address");
  return `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
}
