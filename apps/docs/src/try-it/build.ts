import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultOptions } from "@bot-conversation/sandbox";
import ts from "typescript";
import { descriptionServers, type FormBundle, tryItOperations } from "./form.ts";
import type { TryItConfig } from "./request.ts";

/** The panel's scripts, a folder beside `index.html`: its browser sources compiled to JavaScript modules. */
export const tryItDirectory = "try-it";

/** The script the page loads: the panel, which imports `request.js` beside it, and mounts itself. */
export const tryItEntry = `${tryItDirectory}/panel.js`;

/** The panel's browser sources (TypeScript, each compiled at build time to a module of its own). */
const browserSources = ["request.ts", "panel.ts"] as const;

/** The local sandbox's default address, from the sandbox's own defaults (what `pnpm start` serves). */
export const sandboxUrl = `http://${defaultOptions.host}:${defaultOptions.port}`;

/** What the panel is given: the forms from the description, the local sandbox first, then the description's servers. */
export function tryItConfig(bundle: FormBundle): TryItConfig {
  return {
    operations: tryItOperations(bundle),
    servers: [
      { url: sandboxUrl, label: "The local sandbox started by pnpm start" },
      ...descriptionServers(bundle).filter((server) => server.url !== sandboxUrl),
    ],
    tokenHint: `The sandbox takes ${defaultOptions.tokens.join(" or ")} unless started with other tokens; the mock takes any value.`,
  };
}

/** A browser source as a JavaScript module; its `./x.ts` imports become `./x.js`. */
function compile(source: string): string {
  const { outputText, diagnostics } = ts.transpileModule(readFileSync(new URL(`./${source}`, import.meta.url), "utf8"), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true, rewriteRelativeImportExtensions: true },
    reportDiagnostics: true,
    fileName: source,
  });
  if (diagnostics && diagnostics.length > 0) throw new Error(`src/try-it/${source}: ${ts.flattenDiagnosticMessageText(diagnostics[0]!.messageText, "\n")}`);
  return outputText;
}

/** Writes `try-it/request.js` and `try-it/panel.js` into `distDirectory`, the panel ending with the call that mounts it with this description's forms; returns their paths. */
export function writeTryItScripts(distDirectory: string, bundle: FormBundle): string[] {
  mkdirSync(join(distDirectory, tryItDirectory), { recursive: true });
  return browserSources.map((source) => {
    const path = join(distDirectory, tryItDirectory, source.replace(/\.ts$/, ".js"));
    const mount = source === "panel.ts" ? `\nmountTryIt(${JSON.stringify(tryItConfig(bundle))});\n` : "";
    writeFileSync(path, `${compile(source)}${mount}`);
    return path;
  });
}

/** Returns a copy of the description whose every operation's description ends with the panel's placeholder, `<div data-try-it="operationId"></div>`. */
export function withTryItPlaceholders<T extends { paths: Record<string, Record<string, unknown>> }>(bundle: T): T {
  const copy = structuredClone(bundle);
  for (const item of Object.values(copy.paths)) {
    for (const operation of Object.values(item) as { operationId?: string; description?: string }[]) {
      if (typeof operation?.operationId !== "string") continue;
      operation.description = `${(operation.description ?? "").trimEnd()}\n\n<div data-try-it="${operation.operationId}"></div>\n`;
    }
  }
  return copy;
}

/** Loads the panel's script in the page, as a file of the site (`script-src 'self'`), after the viewer's. */
export function withTryItScript(html: string): string {
  if (!html.includes("</body>")) throw new Error("the page has no </body> to load the Try it panel before");
  return html.replace("</body>", `<script type="module" src="${tryItEntry}"></script>\n</body>`);
}
