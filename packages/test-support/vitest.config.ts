import { heavyTestTimeoutMs } from "./src/timeouts.ts";
import { workspaceTestConfig } from "./src/vitest-config.ts";

/** The browser resolver unpacks and launches a real Chromium. */
export default workspaceTestConfig({ testTimeout: heavyTestTimeoutMs, hookTimeout: heavyTestTimeoutMs });
