import { execFileSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { hangGuardMs } from "@bot-conversation/test-support/timeouts";
import { afterAll } from "vitest";

let terminals = 0;

/** A terminal: a tmux session on its own server socket, killed after the suite. */
export function useTerminal(): {
  start(command: string, env: NodeJS.ProcessEnv): void;
  keys(...keys: string[]): void;
  screen(): string;
  waitFor(pattern: RegExp, withinMs?: number): Promise<string>;
} {
  const socket = `cli-test-${process.pid}-${++terminals}`;
  const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, ...args]).toString();
  afterAll(() => {
    try {
      tmux("kill-server");
    } catch {
      // No session was started.
    }
  });
  const terminal = {
    start(command: string, env: NodeJS.ProcessEnv) {
      const variables = Object.entries(env).flatMap(([name, value]) => ["-e", `${name}=${value ?? ""}`]);
      tmux("new-session", "-d", "-s", "main", "-x", "160", "-y", "40", ...variables, "bash", "--norc", "--noprofile");
      tmux("set-option", "-t", "main", "remain-on-exit", "on");
      terminal.keys(command, "Enter");
    },
    keys: (...keys: string[]) => void tmux("send-keys", "-t", "main", ...keys),
    screen: () => tmux("capture-pane", "-p", "-t", "main"),
    // A shell answers a key within a second or two on an idle machine; past the guard it hangs.
    async waitFor(pattern: RegExp, withinMs = hangGuardMs(6_000)) {
      const until = Date.now() + withinMs;
      for (;;) {
        const screen = terminal.screen();
        if (pattern.test(screen)) return screen;
        if (Date.now() > until) throw new Error(`not on the screen within ${withinMs} ms: ${pattern}\n${screen}`);
        await sleep(50);
      }
    },
  };
  return terminal;
}
