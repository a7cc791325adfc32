import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import buildDependencies, { tasksBeforeTests } from "../src/build-dependencies.ts";

const packageDirectory = (name: string) => fileURLToPath(new URL(`../../${name}`, import.meta.url));

describe("what a package's tests run first, outside turbo", () => {
  test("the tasks of the package's `test` in turbo.json: its build and type check, and another package's task by name", () => {
    // The client's tests import the sandbox's build (its own turbo.json names it); the sandbox's follow the root's.
    expect(tasksBeforeTests(packageDirectory("client")).sort()).toEqual(["@bot-conversation/sandbox#build", "build", "typecheck"]);
    expect(tasksBeforeTests(packageDirectory("sandbox")).sort()).toEqual(["build", "typecheck"]);
  });

  test("a run turbo started (TURBO_HASH set, as in `pnpm test`) starts no second turbo", () => {
    // This very file runs under turbo in `pnpm test`; called with a package that does not exist, a turbo run would fail.
    const saved = process.env["TURBO_HASH"];
    process.env["TURBO_HASH"] = "set-by-turbo";
    try {
      expect(() => buildDependencies({ config: { root: packageDirectory("no-such-package") } })).not.toThrow();
    } finally {
      if (saved === undefined) delete process.env["TURBO_HASH"];
      else process.env["TURBO_HASH"] = saved;
    }
  });
});
