import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const samplesProject = fileURLToPath(new URL("../samples/tsconfig.json", import.meta.url));

// The TypeScript samples the reference shows compile against @bot-conversation/client, so they cannot rot.
it("type-checks the TypeScript code samples against @bot-conversation/client", () => {
  const result = spawnSync(process.execPath, [tsc, "--project", samplesProject, "--pretty", "false"], { encoding: "utf8" });
  expect(result.stdout + result.stderr).toBe("");
  expect(result.status).toBe(0);
});
