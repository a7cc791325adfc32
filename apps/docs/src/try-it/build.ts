import { readFileSync } from "node:fs";
import { defaultOptions } from "@bot-conversation/sandbox";
import ts from "typescript";
import type { TryItConfig } from "./browser.ts";
import { descriptionServers, tryItOperations, type FormBundle } from "./form.ts";

/** The panel's script beside `index.html`. */
export const tryItFileName = "try-it.js";

/** The panel's browser code (TypeScript, compiled at build time). */
const browserSourcePath = new URL("./browser.ts", import.meta.url);

/** The local sandbox's default address, from the sandbox's own defaults (what `pnpm start` serves). */
export const sandboxUrl = `http://${defaultOptions.host}:${defaultOptions.port}`;

/** What the panel is given: the forms from the description, the local sandbox first, then the description's servers. */
export function tryItConfig(bundle: FormBundle): TryItConfig {
  return {
    operations: tryItOperations(bundle),
    servers: [{ url: sandboxUrl, label: "The local sandbox started by pnpm start" }, ...descriptionServers(bundle).filter((server) => server.url !== sandboxUrl)],
    tokenHint: `The sandbox takes ${defaultOptions.tokens.join(" or ")} unless started with other tokens; the mock takes any value.`,
  };
}

/** `try-it.js`: the browser code as JavaScript (a module), then the call that mounts the panels with this description's forms. */
export function tryItScript(bundle: FormBundle): string {
  const { outputText, diagnostics } = ts.transpileModule(readFileSync(browserSourcePath, "utf8"), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
    reportDiagnostics: true,
    fileName: "browser.ts",
  });
  if (diagnostics && diagnostics.length > 0) throw new Error(`src/try-it/browser.ts: ${ts.flattenDiagnosticMessageText(diagnostics[0]!.messageText, "\n")}`);
  return `${outputText}\nmountTryIt(${JSON.stringify(tryItConfig(bundle))});\n`;
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
  return html.replace("</body>", `<script type="module" src="${tryItFileName}"></script>\n</body>`);
}
