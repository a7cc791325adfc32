import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

/**
 * Tests run the real sandbox, in process and as a process on loopback, and Redocly's `respect` against it. Two
 * files at once: `data-file.test.ts` is the run's longest file, and one at a time its tail leaves a core idle once
 * the other packages are done. Time-outs are hang guards (a `respect` run took 5 s alone and over 30 s in a busy CI).
 */
export default workspaceTestConfig({ testTimeout: heavyTestTimeoutMs, hookTimeout: heavyTestTimeoutMs, maxWorkers: 2 });
