import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

/**
 * Tests run the real sandbox, in process and as a process on loopback, and Redocly's `respect` against it. Two
 * files at once: the `--data` tests are the run's longest (three files by subject, `data-file-*.test.ts`, so both
 * workers take a share), and one at a time their tail leaves a core idle once the other packages are done. Time-outs are hang guards (a `respect` run took 5 s alone and over 30 s in a busy CI).
 */
export default workspaceTestConfig({ testTimeout: heavyTestTimeoutMs, hookTimeout: heavyTestTimeoutMs, maxWorkers: 2 });
