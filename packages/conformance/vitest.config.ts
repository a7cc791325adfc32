import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

/**
 * Tests run the kit against real servers on loopback: Prism, the sandbox, and faulty proxies. Two files at
 * once (vitest's default on two cores is one): the kit's fault files are the longest chain of the whole
 * test run, and at its end nothing else is left to use the second core.
 */
export default workspaceTestConfig({ testTimeout: 120_000, hookTimeout: 90_000, maxWorkers: 2 });
