import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

const main = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

/** The sandbox started as a process, the way `pnpm start` starts it. */
export interface SandboxProcess {
  /** Its base URL, read from the ready line. */
  readonly url: string;
  /** The ready line it printed. */
  readonly readyLine: string;
  /** The process. */
  readonly child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Sends the signal and resolves once it has exited, with its exit code and signal. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `node src/main.ts` with the arguments (on 127.0.0.1, port 0 unless given) and resolves when it prints its ready line. */
export async function startSandboxProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [main, "--port", "0", ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const [code, exitSignal] = await exited;
    return { code, signal: exitSignal };
  };
  const readyLine = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 20 s; output:\n${output}`)), 20_000);
    child.stdout.on("data", () => {
      const line = output.split("\n").find((candidate) => candidate.startsWith("Sandbox ready at "));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    void exited.then(([code]) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`exited with ${code} before it was ready; output:\n${output}`), { output, code }));
    });
  });
  return { url: readyLine.slice("Sandbox ready at ".length), readyLine, child, output: () => output, stop };
}
