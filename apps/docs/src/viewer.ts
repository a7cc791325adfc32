import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** The Redoc viewer that `@redocly/cli` itself ships and prerenders with (what `--inlineBundle` embeds). */
export const viewerSourcePath = createRequire(import.meta.url).resolve("@redocly/cli/lib/chunks/redoc.standalone.js");

/** The file name the viewer gets next to `index.html`. */
export const viewerFileName = "redoc.standalone.js";

/**
 * Images the viewer loads from Redocly's CDN (the "API docs by Redocly" logo). Replaced by an empty
 * `data:` URL so the page makes no request to another host: the image fails to decode, and the
 * viewer's `onError` then drops the logo (the "API docs by" link stays).
 */
const remoteLogoUrls = ["https://cdn.redoc.ly/redoc/logo-mini-full.svg", "https://cdn.redoc.ly/redoc/logo-mini.svg"];

/** An image URL that loads nothing from anywhere. */
const emptyImage = "data:,";

/** The viewer as served: Redocly's file with the remote logo URLs replaced. Fails if the file no longer has them. */
export function servedViewer(): { source: string; version: string } {
  let source = readFileSync(viewerSourcePath, "utf8");
  const version = /Version: (\S+)/.exec(source.slice(0, 500))?.[1];
  if (!version) throw new Error(`${viewerSourcePath} does not start with a "Version:" banner`);
  for (const url of remoteLogoUrls) {
    if (!source.includes(url)) throw new Error(`${viewerSourcePath} no longer loads ${url}; review src/viewer.ts`);
    source = source.replaceAll(url, emptyImage);
    if (source.includes(url)) throw new Error(`Could not remove ${url} from the viewer`);
  }
  return { source, version };
}

/** Subresource-integrity value (`sha384-…`) of a script. */
export function integrity(source: string): string {
  return `sha384-${createHash("sha384").update(source).digest("base64")}`;
}
