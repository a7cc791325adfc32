import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

/**
 * Tests run against the real Prism process, which each start waits for (ready when it answers); the
 * time-outs only guard against a hang, on a machine as busy as it may be (a start took over 30 s under load).
 */
export default workspaceTestConfig({ testTimeout: heavyTestTimeoutMs, hookTimeout: heavyTestTimeoutMs });
