/**
 * The ceiling of the server benchmarks: plain `node:http` answering the bytes the sandbox (or Prism) answers for
 * the same search, with nothing else to do, in a process of its own. `node ceiling-server.ts <body file>` prints
 * its port; `startCeiling` runs it.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** A plain node:http server answering `body`, in a process of its own (its CPU time is read from /proc). */
export async function startCeiling(body: ArrayBuffer | Uint8Array): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const scratch = mkdtempSync(join(tmpdir(), "bench-ceiling-"));
  writeFileSync(join(scratch, "body.json"), body instanceof Uint8Array ? body : Buffer.from(body));
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), join(scratch, "body.json")], { stdio: ["ignore", "pipe", "inherit"] });
  const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
  return {
    url: `http://127.0.0.1:${line.replace("port ", "")}`,
    pid: child.pid!,
    stop: async () => {
      child.kill("SIGTERM");
      await once(child, "exit");
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

if (import.meta.main) {
  const body = readFileSync(process.argv[2]!);
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-length": body.byteLength }).end(body);
  });
  server.listen(0, "127.0.0.1", () => console.log(`port ${(server.address() as AddressInfo).port}`));
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}
