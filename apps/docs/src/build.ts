import { referenceBasePath } from "./options.ts";
import { buildSandboxControlPage } from "./sandbox-control.ts";
import { buildSite } from "./site.ts";

let base: string;
try {
  base = referenceBasePath(process.env);
} catch (error) {
  process.stderr.write(`docs build: ${(error as Error).message}\n`);
  process.exit(2);
}
await buildSite({ base });
await buildSandboxControlPage();
