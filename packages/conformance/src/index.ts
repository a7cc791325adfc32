/** The conformance kit: checks any server of the Bot Conversation Service against the description. */
export { runConformance, ServerUnusableError, type ConformanceReport, type Counts, type PhaseTiming, type SideEffect, type StopReason } from "./runner.ts";
export { UsageError, type ConformanceOptions, type Progress } from "./options.ts";
export { checkCatalog, checkDescriptions, checkNames, type CheckName } from "./checks/index.ts";
export type { CheckResult, CheckStatus, Failure } from "./results.ts";
export type { Finding } from "./discovery.ts";
export type { AcceptedDecisions } from "./decisions.ts";
export { baselineOf, parseBaseline, type Baseline, type KnownFailure } from "./baseline.ts";
export type { OperationCoverage, ParameterCoverage, StatusCoverage } from "./coverage.ts";
export { humanReport } from "./report/human.ts";
export { jsonReport } from "./report/json.ts";
export { junitReport } from "./report/junit.ts";
export { htmlReport } from "./report/html.ts";
export { githubAnnotations, githubSummary } from "./report/github.ts";
export { main as runCheckCommand, newCheckCommand, exitCodes, type CommandIo } from "./command.ts";
