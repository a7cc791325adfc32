/** The sandbox of the Bot Conversation Service as a library: in process (`createSandbox`) or over HTTP (`startSandboxServer`). */
export { createSandbox, type Sandbox } from "./sandbox.ts";
export { startSandboxServer, type RunningSandbox } from "./http/server.ts";
export { defaultOptions, type Delay, type Latency, type SandboxOptions, type ServerOptions } from "./options.ts";
export { sandboxStates, type Fixture, type SandboxState } from "./model.ts";
export { parseServerOptions, sandboxFlags } from "./cli/args.ts";
export { defaultSwitches, parseSwitch, switchDefinitions, type SandboxSwitches, type SwitchDefinition } from "./switches.ts";
export { FixtureError } from "./data/fixture.ts";
export type { Defect } from "./description.ts";
export type { Problem } from "./http/problem.ts";
export { launchSandbox, LaunchError, type LaunchedSandbox } from "./cli/launch.ts";
export { runSandboxCommand, sandboxUsage } from "./cli/command.ts";
export { minimumNode, requireNode } from "./node-version.ts";
