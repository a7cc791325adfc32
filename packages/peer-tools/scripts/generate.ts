/**
 * Generates TypeScript (and zod) from the bundled description with the three generators our users
 * reach for most, into `generated/` (not committed: it is rebuilt from the bundle every build).
 */

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createClient } from "@hey-api/openapi-ts";
import openapiTS, { astToString } from "openapi-typescript";
import orval from "orval";
import { bundlePath, generatedDirectory } from "../src/paths.ts";

rmSync(generatedDirectory, { recursive: true, force: true });
mkdirSync(generatedDirectory, { recursive: true });

// openapi-typescript: what packages/types uses, default options.
writeFileSync(`${generatedDirectory}/openapi-typescript.ts`, astToString(await openapiTS(new URL(`file://${bundlePath}`))));

// @hey-api/openapi-ts: its default plugins (types, SDK on its fetch client).
await createClient({ input: bundlePath, output: { path: `${generatedDirectory}/hey-api` }, logs: { level: "silent" } });

// orval: the fetch client with its models; then zod, per operation and for every component schema.
await orval({
  input: { target: bundlePath },
  output: { target: `${generatedDirectory}/orval/client.ts`, schemas: `${generatedDirectory}/orval/model`, client: "fetch" },
});
await orval({
  input: { target: bundlePath },
  output: {
    target: `${generatedDirectory}/orval/zod.ts`,
    client: "zod",
    schemas: { path: `${generatedDirectory}/orval/zod-schemas.ts`, type: "zod", mode: "single" },
  },
});
