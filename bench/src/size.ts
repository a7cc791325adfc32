/**
 * The client's size: its ESM entry bundled with openapi-fetch, minified and gzipped, next to
 * openapi-fetch alone bundled the same way, against the 5 kB target. CI enforces the limit of
 * packages/client/.size-limit.json (size-limit, gzip) in the client's tests; this reports the figures
 * beside the other benchmarks.
 */
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { formatNumber, markdownTable, type Section } from "./report.ts";

const require = createRequire(import.meta.url);

async function bundledSize(entry: string): Promise<{ minified: number; gzipped: number }> {
  const result = await build({ stdin: { contents: entry, resolveDir: import.meta.dirname }, bundle: true, minify: true, format: "esm", platform: "browser", write: false });
  const output = result.outputFiles[0]!.contents;
  return { minified: output.length, gzipped: gzipSync(output, { level: 9 }).length };
}

/** Bundles both and reports their sizes. */
export async function clientSize(): Promise<Section> {
  const client = await bundledSize(`export * from ${JSON.stringify(require.resolve("@bot-conversation/client"))};`);
  const openapiFetch = await bundledSize(`export { default } from "openapi-fetch";`);
  const budget = 5 * 1024;
  return {
    title: "Client size",
    method: "esbuild, ESM, minified, browser platform; gzip level 9.",
    table: markdownTable(
      ["Bundle", "minified", "gzipped"],
      [
        ["@bot-conversation/client (openapi-fetch included)", `${formatNumber(client.minified / 1024, 2)} kB`, `${formatNumber(client.gzipped / 1024, 2)} kB`],
        ["openapi-fetch alone", `${formatNumber(openapiFetch.minified / 1024, 2)} kB`, `${formatNumber(openapiFetch.gzipped / 1024, 2)} kB`],
      ],
    ),
    budgets: [{ name: "client bundle at most 5 kB gzipped", ok: client.gzipped <= budget, detail: `${formatNumber(client.gzipped / 1024, 2)} kB` }],
  };
}
