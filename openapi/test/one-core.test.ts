/**
 * Facts a reader can check with grep (issue 33): one Ajv factory, one description reader, one matcher of
 * path templates and one redactor. Every source file of the published packages and the apps is read; a second `new Ajv…`, a
 * second import of Ajv or ajv-formats, a second JSON-pointer walk or a second token-replacing rule
 * fails here, naming the file.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Every `.ts` file under `<group>/<package>/src` (generated ones included), relative to the root. */
function sources(): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|tsx|mts)$/.test(entry.name)) found.push(relative(root, path));
    }
  };
  walk(join(root, "openapi", "src"));
  for (const group of ["packages", "apps"]) {
    for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
      const src = join(root, group, entry.name, "src");
      if (entry.isDirectory() && readdirSync(join(root, group, entry.name)).includes("src")) walk(src);
    }
  }
  return found.sort();
}

/** The files whose text matches. */
const filesMatching = (pattern: RegExp): string[] => sources().filter((file) => pattern.test(readFileSync(join(root, file), "utf8")));

describe("one core under every surface", () => {
  it("reads the sources of every package and app (the sandbox, the CLI, the kit among them)", () => {
    const files = sources();
    for (const file of [
      "packages/sandbox/src/description.ts",
      "packages/cli/src/description.ts",
      "packages/cli/src/mcp/schema-check.ts",
      "packages/conformance/src/description.ts",
      "openapi/src/ajv.ts",
    ]) {
      expect(files).toContain(file);
    }
  });

  it("one Ajv factory: `new Ajv…` only in openapi/src/ajv.ts (the kit's oracles use none)", () => {
    expect(filesMatching(/new\s+Ajv\w*\s*\(/)).toEqual(["openapi/src/ajv.ts"]);
  });

  it("Ajv and ajv-formats are imported only by the factory (a type import aside)", () => {
    expect(filesMatching(/^import\s+(?!type\b)[^;]*from\s+["'](ajv|ajv-formats)(\/[^"']*)?["']/m)).toEqual(["openapi/src/ajv.ts"]);
  });

  it("one description reader: a JSON pointer is decoded (`~1` read back as `/`) only in openapi/src/description.ts", () => {
    // Encoding a segment is not reading the description: the client's one schema-error wording (below this
    // package in the build) writes the pointers of its messages itself.
    expect(filesMatching(/replaceAll\(\s*["']~1["']/)).toEqual(["openapi/src/description.ts"]);
  });

  it("one matcher of path templates: a template's `{parameter}` is read only in openapi/src/path-template.ts (issue 49)", () => {
    // A regular expression over a template's braces (`\{[^}]+\}`, `\{([^}]+)\}`, escaped or not) is a reading of templates.
    const readsTemplates = /\\\{\(?\[\^\{?\}/;
    // Still to move onto the templates' `fill`: the kit, which fills templates to send its requests (it matches none).
    const stillToMove = new Set(["packages/conformance/src/case.ts", "packages/conformance/src/phases/protocol.ts"]);
    expect(filesMatching(readsTemplates).filter((file) => !stillToMove.has(file))).toEqual(["openapi/src/path-template.ts"]);
  });

  it("the sandbox, the CLI, the MCP tools and the kit read the description through @bot-conversation/openapi", () => {
    const readers = ["packages/sandbox/src/description.ts", "packages/cli/src/description.ts", "packages/conformance/src/description.ts"];
    for (const file of readers)
      expect(readFileSync(join(root, file), "utf8"), file).toMatch(
        /import \{[^}]*\b(readDescription|compileDescription)\b[^}]*\} from "@bot-conversation\/openapi"/,
      );
    expect(readFileSync(join(root, "packages/cli/src/mcp/schema-check.ts"), "utf8")).toMatch(
      /import \{[^}]*\bcreateAjv\b[^}]*\} from "@bot-conversation\/openapi\/ajv"/,
    );
  });

  it("one redactor: the token rule is written only in the client, and the CLI, MCP and the kit import it from @bot-conversation/client/text", () => {
    // The two halves of the rule: a long token replaced wherever it stands, a short one only where it stands alone.
    expect(filesMatching(/\.split\([A-Za-z_]+\)\.join\(/)).toEqual(["packages/client/src/internal/redact.ts"]);
    expect(filesMatching(/\(\?<!\[\\\\w-\]\)/)).toEqual(["packages/client/src/internal/redact.ts"]);
    for (const file of [
      "packages/cli/src/io.ts",
      "packages/cli/src/output/writers.ts",
      "packages/cli/src/mcp/server.ts",
      "packages/conformance/src/redact.ts",
    ]) {
      expect(readFileSync(join(root, file), "utf8"), file).toMatch(/import \{[^}]*\bredact(Text|Json)\b[^}]*\} from "@bot-conversation\/client\/text"/);
    }
  });
});
