import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

/**
 * Tests read the built site and drive a real Chromium, one per file. Two files at once (vitest's default on two cores
 * is one): the reference's tests are among the run's longest, and at their end little else is left to use the second core.
 */
export default workspaceTestConfig({ testTimeout: heavyTestTimeoutMs, hookTimeout: heavyTestTimeoutMs, maxWorkers: 2 });
