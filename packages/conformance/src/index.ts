/** The conformance kit: checks any server of the Bot Conversation Service against the description. */

export { type Baseline, baselineOf, type KnownFailure, parseBaseline } from "./baseline.ts";
export type { Case, Exchange } from "./case.ts";
export { type CatalogEntry, type CheckName, checkCatalog, checkDescriptions, checkNames, type FamilyName, type ProbeFamily } from "./checks/index.ts";
export {
  type CheckContext,
  type ExchangeCheck,
  failureText,
  type KeywordProblem,
  type NotJudged,
  notApplicable,
  type SchemaFailed,
  type Verdict,
} from "./checks/types.ts";
export { type CommandIo, exitCodes, main as runCheckCommand, newCheckCommand } from "./command.ts";
export type { OperationCoverage, ParameterCoverage, StatusCoverage } from "./coverage.ts";
export type { AcceptedDecisions } from "./decisions.ts";
export { type Description, loadDescription } from "./description.ts";
export type { Finding } from "./discovery.ts";
export { type FamilyResult, probeFamilies, type RuleResult, type RuleVerdict, rules } from "./families.ts";
export { type ConformanceOptions, type Progress, UsageError } from "./options.ts";
export { githubAnnotations, githubSummary } from "./report/github.ts";
export { htmlReport } from "./report/html.ts";
export { humanReport } from "./report/human.ts";
export { jsonReport } from "./report/json.ts";
export { junitReport } from "./report/junit.ts";
export type { CheckResult, CheckStatus, Failure } from "./results.ts";
export { type ConformanceReport, type Counts, type PhaseTiming, runConformance, ServerUnusableError, type SideEffect, type StopReason } from "./runner.ts";
export { readTriggerList, type TriggerListBody, type TriggerListShape } from "./trigger-list.ts";
