import { buildSandboxControlPage } from "./sandbox-control.ts";
import { buildSite } from "./site.ts";

await buildSite();
await buildSandboxControlPage();
