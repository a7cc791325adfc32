import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

/**
 * Tests run the real sandbox, in process and as a process on loopback. Two files at once: `data-file.test.ts`
 * is the run's longest file, and one at a time its tail leaves a core idle once the other packages are done.
 */
export default workspaceTestConfig({ testTimeout: 30_000, hookTimeout: 60_000, maxWorkers: 2 });
