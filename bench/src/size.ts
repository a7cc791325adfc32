/**
 * The client's size, measured by size-limit exactly as CI checks it (packages/client/.size-limit.json:
 * the ESM entry bundled by esbuild with openapi-fetch, minified, gzip level 9), next to openapi-fetch
 * alone measured the same way, against the 6.62 kB budget (6,620 bytes, as size-limit counts a kB; 6,000 until the one date rule and the File and PersonName checks, 6,150 until issue 30's bounded reads and paging limits, 6,500 until the bounded reader answered bytes for the kit, 6,550 until issue 42's shared caller and page text, 6,570 until issue 39's one wrong-value wording and one Retry-After reading, 6,580 until the bounded readers were defined on a response rather than assigned).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import esbuildPlugin from "@size-limit/esbuild";
import filePlugin from "@size-limit/file";
import sizeLimit from "size-limit";
import { formatNumber, markdownTable, type Section } from "./report.ts";

const require = createRequire(import.meta.url);
const budgetBytes = 6_620;

/** size-limit's figures for one entry file: minified, and minified then gzipped. */
async function measured(entry: string): Promise<{ minified: number; gzipped: number }> {
  const size = async (compression: { gzip: true } | { gzip: false; brotli: false }): Promise<number> => {
    // size-limit's API is typed as resolving to `object`: one `{ size }` per check.
    const [result] = (await sizeLimit([esbuildPlugin, filePlugin], { checks: [{ files: [entry], ...compression }] })) as [{ size: number }];
    return result.size;
  };
  return { minified: await size({ gzip: false, brotli: false }), gzipped: await size({ gzip: true }) };
}

const kB = (bytes: number): string => `${formatNumber(bytes / 1000, 2)} kB`;

/** Measures both and reports their sizes. */
export async function clientSize(): Promise<Section> {
  const client = await measured(require.resolve("@bot-conversation/client"));
  // openapi-fetch alone: an entry that keeps its default export (createClient), as the client imports it.
  const scratch = await mkdtemp(join(tmpdir(), "bench-size-"));
  let openapiFetch: { minified: number; gzipped: number };
  try {
    const entry = join(scratch, "openapi-fetch.js");
    await writeFile(entry, `export { default } from ${JSON.stringify(fileURLToPath(import.meta.resolve("openapi-fetch")))};\n`);
    openapiFetch = await measured(entry);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return {
    title: "Client size",
    method:
      "size-limit 14 with @size-limit/esbuild and @size-limit/file, as `.size-limit.json` of the client runs in CI: esbuild bundle, minified; gzip level 9. 1 kB = 1,000 bytes.",
    table: markdownTable(
      ["Bundle", "minified", "gzipped"],
      [
        ["@bot-conversation/client (openapi-fetch included)", kB(client.minified), kB(client.gzipped)],
        ["openapi-fetch alone", kB(openapiFetch.minified), kB(openapiFetch.gzipped)],
        ["what the client adds", kB(client.minified - openapiFetch.minified), kB(client.gzipped - openapiFetch.gzipped)],
      ],
    ),
    budgets: [{ name: "client bundle at most 6.62 kB gzipped", ok: client.gzipped <= budgetBytes, detail: `${client.gzipped} B of ${budgetBytes} B` }],
  };
}
