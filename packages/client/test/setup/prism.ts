import { createRequire } from "node:module";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base address of the Prism mock serving the bundled description. */
    prismUrl: string;
  }
}

const prismBin = fileURLToPath(new URL("../../node_modules/.bin/prism", import.meta.url));
const bundle = createRequire(import.meta.url).resolve("@bot-conversation/openapi/openapi.yaml");

/** Asks the OS for a free port on 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return address.port;
}

/** Starts a real Prism process for the test run and stops it afterwards. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const port = await freePort();
  const prism = spawn(prismBin, ["mock", "-h", "127.0.0.1", "-p", String(port), bundle], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  prism.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  prism.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (prism.exitCode !== null) throw new Error(`Prism exited early:\n${output}`);
    try {
      await fetch(`${url}/api/v2/channels/conversations`);
      break;
    } catch {
      if (Date.now() > deadline) {
        prism.kill();
        throw new Error(`Prism did not answer within 60 s:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  project.provide("prismUrl", url);
  return async () => {
    if (prism.exitCode === null) {
      prism.kill("SIGTERM");
      await once(prism, "exit");
    }
  };
}
