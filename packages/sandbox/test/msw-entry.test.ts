import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { expect, test } from "vitest";

test("the MSW entry bundles for a browser without node:sqlite or the --data file (issue 29)", async () => {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL("../src/msw.ts", import.meta.url))],
    bundle: true,
    format: "esm",
    platform: "browser",
    write: false,
    target: "es2022",
    metafile: true,
    external: ["msw"],
  });
  const inputs = Object.keys(bundle.metafile.inputs);
  expect(inputs.some((input) => input.endsWith("src/engine/search-index.ts"))).toBe(true);
  expect(inputs.filter((input) => input.endsWith("src/data/data-file.ts") || input.endsWith("src/sandbox.ts"))).toEqual([]);
  // No import of it, static, dynamic or required (the word itself may stand in a text: the open points' decisions name it).
  expect(Object.values(bundle.metafile.outputs).flatMap((output) => output.imports.map((imported) => imported.path))).not.toContain("node:sqlite");
  expect(bundle.outputFiles[0]!.text).not.toMatch(/(from\s*|import\s*\(\s*|require\s*\(\s*)["']node:sqlite["']/);
});
