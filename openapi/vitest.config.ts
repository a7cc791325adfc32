import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

// The Redocly CLI checks spawn a process each; give them room on a 2-core machine.
export default workspaceTestConfig({ testTimeout: heavyTestTimeoutMs });
