/**
 * The ceiling of the server benchmarks: plain `node:http` answering the very bytes the sandbox (or Prism) answers for
 * the same search (its body and its head: the same headers, in a value of the same length where one changes per
 * answer, as a request id does, and the same keep-alive timeout), with nothing else to do, in a process of its own.
 * `node ceiling-server.ts <folder of the answer>` prints its port; `startCeiling` runs it.
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

/** What the ceiling answers: a body, and the headers sent beside it (a flat list, as `writeHead` takes them). */
interface CeilingAnswer {
  readonly head: string[];
  readonly keepAliveSeconds: number | undefined;
}

/** Headers Node's server writes of its own (or from the body's length): not copied from the answer. */
const writtenByNode = new Set(["content-length", "date", "connection", "keep-alive", "transfer-encoding"]);

/** The head of an answer as the ceiling sends it again: its headers but Node's own, and its keep-alive timeout. */
function ceilingAnswerOf(answer: Response): CeilingAnswer {
  const head: string[] = [];
  for (const [name, value] of answer.headers) if (!writtenByNode.has(name)) head.push(name, value);
  const timeout = /timeout=(\d+)/.exec(answer.headers.get("keep-alive") ?? "")?.[1];
  return { head, keepAliveSeconds: timeout === undefined ? undefined : Number(timeout) };
}

/** A plain node:http server answering what `answer` holds (its body and head: see the module's comment), in a process of its own (its CPU time is read from /proc). */
export async function startCeiling(answer: Response): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  if (!answer.ok) throw new Error(`bench ceiling: the answer to repeat has status ${answer.status}`);
  const body = new Uint8Array(await answer.arrayBuffer());
  const { head, keepAliveSeconds } = ceilingAnswerOf(answer);
  const scratch = mkdtempSync(join(tmpdir(), "bench-ceiling-"));
  writeFileSync(join(scratch, "body"), body);
  writeFileSync(join(scratch, "head.json"), JSON.stringify({ head, keepAliveSeconds } satisfies CeilingAnswer));
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), scratch], { stdio: ["ignore", "pipe", "inherit"] });
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
  const body = readFileSync(join(process.argv[2]!, "body"));
  const { head, keepAliveSeconds } = JSON.parse(readFileSync(join(process.argv[2]!, "head.json"), "utf8")) as CeilingAnswer;
  const answerHead = [...head, "content-length", String(body.byteLength)];
  const server = createServer((_request, response) => {
    response.writeHead(200, answerHead).end(body);
  });
  if (keepAliveSeconds !== undefined) server.keepAliveTimeout = keepAliveSeconds * 1000;
  server.listen(0, "127.0.0.1", () => console.log(`port ${(server.address() as AddressInfo).port}`));
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}
