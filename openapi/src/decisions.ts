/**
 * The points the service leaves open, and what the toolkit decides for each: `decisions.yaml`, as the
 * generated module holds it. The sandbox's switches and the conformance kit's findings read their
 * labels, values and texts here, by id or by finding name (never by a label typed again); the README's
 * Decisions tables are generated from the same file.
 */
import { decisions, sandboxAnswers } from "./decisions.generated.js";

export { decisions, sandboxAnswers };

/** The sandbox's answer to an open point: a switch (`flag`, its values, its default), or a text. */
export interface SandboxAnswer {
  /** The sandbox's command-line flag, without the dashes (`page-base`). */
  readonly flag?: string;
  /** The switch's values, the default first; or what an open value is (`positive integer`, `positive integer or none`, `text`). */
  readonly values?: readonly string[] | string;
  /** The default of an open value (`20`, `none`, `Inbound`). */
  readonly default?: string;
  /** What the README's switch table adds after the switch. */
  readonly note?: string;
  /** The README's text for the point, with `{switch}` where the switch goes (or without a switch). */
  readonly text?: string;
}

/** One open point. */
export interface Decision {
  /** Stable id, kebab case (`page-index-base`). */
  readonly id: string;
  /** The point as the Decisions table names it (`Base of \`pageIndex\``). */
  readonly label: string;
  /** What the service says about it; absent for a point without a row in the Decisions table. */
  readonly service?: string;
  /** What the description does. */
  readonly decision?: string;
  /** Why. */
  readonly why?: string;
  /** How the sandbox answers it. */
  readonly sandbox?: SandboxAnswer;
  /** The names of the conformance kit's findings that report it (`page_index_base`). */
  readonly findings?: readonly string[];
}

// The generated data has the shape of `Decision` (a compile error otherwise).
const checked: readonly Decision[] = decisions;
const answersChecked: readonly Pick<Decision, "id" | "label" | "sandbox">[] = sandboxAnswers;
void answersChecked;

/** The id of an open point. */
export type DecisionId = (typeof decisions)[number]["id"];

/** The name of a finding of the conformance kit, as `decisions.yaml` lists it. */
export type FindingName = (typeof decisions)[number] extends infer Entry
  ? Entry extends { readonly findings: readonly (infer Name)[] }
    ? Name
    : never
  : never;

/** The open point with this id. */
export function decisionById(id: DecisionId): Decision {
  return checked.find((entry) => entry.id === id)!;
}

/** The open point a finding of the conformance kit reports. */
export function decisionOfFinding(name: FindingName): Decision {
  return checked.find((entry) => entry.findings?.includes(name))!;
}
