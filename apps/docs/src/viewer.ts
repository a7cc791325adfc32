import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** The Redoc viewer that `@redocly/cli` itself ships and prerenders with (what `--inlineBundle` embeds). */
export const viewerSourcePath = createRequire(import.meta.url).resolve("@redocly/cli/lib/chunks/redoc.standalone.js");

/** The file name the viewer gets next to `index.html`. */
export const viewerFileName = "redoc.standalone.js";

/**
 * Images the viewer loads from Redocly's CDN: the logo of its sidebar badge, "API docs by" and then
 * the logo (full, or a mark when the sidebar is collapsed). The page loads nothing from another host
 * (its policy allows images from the site and `data:` only), so each is replaced by a drawing of our
 * own in a `data:` URL: the name "Redocly" as text, so the badge reads whole offline.
 */
const localLogos: Record<string, string> = {
  "https://cdn.redoc.ly/redoc/logo-mini-full.svg": svgDataUrl(52, 16, "Redocly"),
  "https://cdn.redoc.ly/redoc/logo-mini.svg": svgDataUrl(12, 16, "R"),
};

/** An SVG image of one word in the viewer's text colour and font, as a `data:` URL (percent-encoded: no quote or backtick of the viewer's code is touched). */
function svgDataUrl(width: number, height: number, word: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><text x="0" y="12" font-family="system-ui, sans-serif" font-size="12" font-weight="600" fill="#1a1c21">${word}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** The viewer as served: Redocly's file with the remote logo URLs replaced by local drawings. Fails if the file no longer has them. */
export function servedViewer(): { source: string; version: string } {
  let source = readFileSync(viewerSourcePath, "utf8");
  const version = /Version: (\S+)/.exec(source.slice(0, 500))?.[1];
  if (!version) throw new Error(`${viewerSourcePath} does not start with a "Version:" banner`);
  for (const [url, local] of Object.entries(localLogos)) {
    if (!source.includes(url)) throw new Error(`${viewerSourcePath} no longer loads ${url}; review src/viewer.ts`);
    source = source.replaceAll(url, local);
    if (source.includes(url)) throw new Error(`Could not remove ${url} from the viewer`);
  }
  return { source, version };
}

/** Subresource-integrity value (`sha384-…`) of a script. */
export function integrity(source: string): string {
  return `sha384-${createHash("sha384").update(source).digest("base64")}`;
}
