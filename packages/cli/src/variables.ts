import { validateEventPayload } from "@bot-conversation/client";
import type { ExternalEventPayload, ExternalEventTrigger } from "@bot-conversation/types";
import { UsageError } from "./io.js";

/** JSON's number grammar: what `--var amount=149.9` may hold for a `Number` variable. */
const jsonNumber = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** Reads `--var name=value` flags (repeatable) as text by name; a flag without `=` or a name given twice is a `UsageError`. */
export function variableTexts(flags: readonly string[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const flag of flags) {
    const at = flag.indexOf("=");
    if (at < 1) throw new UsageError(`--var: expected name=value; got ${JSON.stringify(flag)}`);
    const name = flag.slice(0, at);
    if (texts.has(name)) throw new UsageError(`--var ${name}: given twice; expected each variable once`);
    texts.set(name, flag.slice(at + 1));
  }
  return texts;
}

/** The value of a variable's text by its declared type: a Number or Boolean from its JSON form, a ComplexObject or File from JSON; text otherwise. */
function typed(type: string | undefined, text: string): unknown {
  if (type === "Number" && jsonNumber.test(text)) return Number(text);
  if (type === "Boolean" && (text === "true" || text === "false")) return text === "true";
  if (type === "ComplexObject" || type === "File") {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * The payload of a fire: each `--var` typed by the trigger's own definition of it, then checked with the
 * client's rules (`validateEventPayload`); every problem (an unknown variable, a wrong-typed value) is
 * one `UsageError` naming the variables and what each expected, and nothing is sent.
 */
export function eventPayload(trigger: ExternalEventTrigger, texts: ReadonlyMap<string, string>): ExternalEventPayload {
  const payload = Object.fromEntries([...texts].map(([name, text]) => [name, typed(trigger.parameters[name]?.type, text)]));
  const problems = validateEventPayload(trigger, payload);
  if (problems.length > 0) {
    const known =
      Object.entries(trigger.parameters)
        .map(([code, parameter]) => `${code} (${parameter.type})`)
        .join(", ") || "none";
    throw new UsageError(`--var ${problems.map((problem) => problem.message).join("; --var ")} (the trigger's variables: ${known})`);
  }
  return payload as ExternalEventPayload;
}
