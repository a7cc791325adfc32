import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

/** Tests run the kit against real servers on loopback: Prism, the sandbox, and faulty proxies. */
export default workspaceTestConfig({ testTimeout: 120_000, hookTimeout: 90_000 });
