import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

/**
 * Tests run the command against the real sandbox on loopback, in process and as a child process. Each file in a
 * fresh module cache: a sandbox served in process replaces the process's global `Response` with its HTTP
 * adapter's (Hono's Node server), and the recorder's tests, run after one, read request bodies through it.
 */
export default workspaceTestConfig({ testTimeout: 120_000, hookTimeout: 90_000, isolate: true });
