/** The sandbox of the Bot Conversation Service as a library: in process (`createSandbox`) or over HTTP (`startSandboxServer`). */
export { createSandbox, type Sandbox } from "./sandbox.ts";
export { startSandboxServer, type RunningSandbox } from "./server.ts";
export { defaultOptions, sandboxStates, type Delay, type Latency, type SandboxOptions, type SandboxState, type ServerOptions } from "./options.ts";
export { parseServerOptions, sandboxFlags } from "./args.ts";
export { defaultSwitches, switchDefinitions, type SandboxSwitches, type SwitchDefinition } from "./switches.ts";
export { FixtureError, type Fixture } from "./fixture.ts";
export type { Defect } from "./description.ts";
export type { Problem } from "./problem.ts";
export { launchSandbox, LaunchError, type LaunchedSandbox } from "./launch.ts";
export { runSandboxCommand, sandboxUsage } from "./command.ts";
export { minimumNode, requireNode } from "./node-version.ts";
