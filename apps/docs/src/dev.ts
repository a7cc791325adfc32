import { spawn } from "node:child_process";
import { once } from "node:events";
import { watch } from "node:fs";
import { fileURLToPath } from "node:url";
import { samplesDirectory, templatePath } from "./paths.ts";
import { serveSite } from "./serve.ts";
import { buildSite } from "./site.ts";
import { watchFile } from "./watch.ts";

const openapiDirectory = fileURLToPath(new URL("../../../openapi/", import.meta.url));
/** Sources of the description; `dist/` and the package's own tests and README do not change the reference. */
const isDescriptionSource = (file: string): boolean => /^(openapi\.yaml|description\.md|paths\/|components\/)/.test(file);

/** Rebundles the description through its own package script, so dev builds what CI builds. */
async function bundleDescription(): Promise<void> {
  const pnpm = process.env["npm_execpath"];
  const [command, args] = pnpm ? [process.execPath, [pnpm]] : ["pnpm", []];
  const child = spawn(command, [...args, "--filter", "@bot-conversation/openapi", "build"], { stdio: "inherit" });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`bundling the description failed (exit code ${code})`);
}

let running: Promise<void> = Promise.resolve();
let timer: NodeJS.Timeout | undefined;

/** Queues one rebuild after a burst of changes (editors write several times per save). */
function scheduleRebuild(reason: string, rebundle: boolean): void {
  clearTimeout(timer);
  timer = setTimeout(() => {
    running = running.then(async () => {
      console.log(`\n${reason} changed, rebuilding…`);
      try {
        if (rebundle) await bundleDescription();
        await buildSite();
        console.log("Rebuilt; reload the page.");
      } catch (error) {
        console.error(error instanceof Error ? error.message : error);
      }
    });
  }, 200);
}

await buildSite();
await serveSite("Live preview", 8080);
const watchers = [
  watch(openapiDirectory, { recursive: true }, (_event, file) => {
    if (file && isDescriptionSource(file)) scheduleRebuild(`openapi/${file}`, true);
  }),
  watch(samplesDirectory, (_event, file) => scheduleRebuild(`samples/${file ?? ""}`, false)),
  watchFile(templatePath, () => scheduleRebuild("template.hbs", false)),
];
// serveSite closes the server on these signals; the watchers would keep the process alive.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  });
}
