import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { installed } from "../src/machine-programs.ts";

const run = promisify(execFile);
const modulePath = fileURLToPath(new URL("../src/machine-programs.ts", import.meta.url));

/** What `programForTests(command, what, aptPackage)` returns and prints, asked in a process of its own. */
async function ask(...args: string[]): Promise<{ result: string; stdout: string; stderr: string }> {
  const script = `const { programForTests } = await import(${JSON.stringify(modulePath)}); console.log(programForTests(...${JSON.stringify(args)}));`;
  const { stdout, stderr } = await run(process.execPath, ["--input-type=module", "-e", script]);
  return { result: stdout.trim(), stdout, stderr };
}

describe("programs the tests take from the machine", () => {
  it("a program on the PATH is found, one that is not is not", () => {
    expect(installed("sh")).toBe(true);
    expect(installed("no-such-program-bot-conversation")).toBe(false);
  });

  it("a missing program: false, and one line naming the tests, the program and its apt package", async () => {
    const asked = await ask("no-such-program-bot-conversation", "frobnicator tests", "frobnicator-pkg");
    expect(asked.result).toBe("false");
    expect(asked.stderr).toBe("frobnicator tests not run: no-such-program-bot-conversation is not installed (apt-get install frobnicator-pkg); CI runs them\n");
  });

  it("an installed program: true, and nothing said", async () => {
    expect(await ask("sh", "shell tests")).toEqual({ result: "true", stdout: "true\n", stderr: "" });
  });
});
