import { readFile } from "node:fs/promises";
import { join } from "node:path";
import ts from "typescript";

/** One ```ts block of a README and what the compiler said about it. */
export interface ReadmeExample {
  /** Line of the README where the block starts. */
  readonly line: number;
  /** Compiler diagnostics, formatted; empty when the block compiles. */
  readonly diagnostics: string[];
}

/** One ```ts block of a README: where it starts and its source. */
export interface ReadmeBlock {
  /** Line of the README where the block starts. */
  readonly line: number;
  /** The code inside the fence. */
  readonly source: string;
}

/** Every ```ts block of a README, in order. */
export async function readmeTypeScriptBlocks(readmePath: string): Promise<ReadmeBlock[]> {
  const readme = await readFile(readmePath, "utf8");
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => ({
    line: readme.slice(0, match.index).split("\n").length,
    source: match[1] ?? "",
  }));
}

/**
 * Type-checks every ```ts block of a README (by default `<packageDir>/README.md`) with the compiler
 * API, as ES modules inside the package (so `import ... from "<package name>"` resolves through its
 * own `exports`).
 */
export async function checkReadmeExamples(
  packageDir: string,
  compilerOptions: ts.CompilerOptions = {},
  readmePath = join(packageDir, "README.md"),
): Promise<ReadmeExample[]> {
  const blocks = await readmeTypeScriptBlocks(readmePath);
  const files = new Map(blocks.map((block, index) => [join(packageDir, `readme-example-${index}.ts`), block.source]));
  const configFile = ts.findConfigFile(packageDir, ts.sys.fileExists, "tsconfig.json");
  const parsed = configFile ? ts.getParsedCommandLineOfConfigFile(configFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} }) : undefined;
  const options = { ...parsed?.options, ...compilerOptions, noEmit: true, allowImportingTsExtensions: false, noUnusedLocals: false };
  const host = ts.createCompilerHost(options);
  const readFileText = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (name) => files.get(name) ?? readFileText(name);
  host.fileExists = (name) => files.has(name) || fileExists(name);
  const program = ts.createProgram([...files.keys()], options, host);
  return blocks.map((block, index) => {
    const source = program.getSourceFile(join(packageDir, `readme-example-${index}.ts`));
    const diagnostics = source ? [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)] : [];
    return {
      line: block.line,
      diagnostics: diagnostics.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")),
    };
  });
}
