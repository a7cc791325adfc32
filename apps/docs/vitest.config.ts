import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

/** Tests read the built site and drive a real Chromium. */
export default workspaceTestConfig({ testTimeout: heavyTestTimeoutMs, hookTimeout: heavyTestTimeoutMs });
