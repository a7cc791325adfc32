import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { workflowsPath } from "./paths.ts";
import { withSection } from "./sections.ts";

/** Heading of the reference's section generated from the Arazzo document (a sidebar entry, `/section/workflows`). */
export const workflowsSectionHeading = "Workflows";

/** The parts of an Arazzo 1.0 document the section shows. */
export interface ArazzoDocument {
  workflows: ArazzoWorkflow[];
  components?: { inputs?: Record<string, InputSchema> };
}
interface InputSchema {
  required?: string[];
  properties?: Record<string, { type?: string; format?: string; default?: unknown; description?: string }>;
}
interface ArazzoWorkflow {
  workflowId: string;
  summary?: string;
  description?: string;
  inputs?: InputSchema | { $ref: string };
  steps: { stepId: string; description?: string; operationId?: string; workflowId?: string; successCriteria?: { condition: string; type?: string }[] }[];
  outputs?: Record<string, string>;
}
/** The operations of the description, by id: how a step's operation is shown. */
type Operations = Record<string, { method: string; path: string }>;

/** Text on one line. */
const line = (text: string) => text.replaceAll("\n", " ").trim();
/** Inline code on one line. */
const code = (text: string) => `\`${line(text)}\``;

function inputsOf(document: ArazzoDocument, workflow: ArazzoWorkflow): InputSchema {
  const inputs = workflow.inputs ?? {};
  if (!("$ref" in inputs)) return inputs;
  const name = inputs.$ref.split("/").at(-1) ?? "";
  const found = document.components?.inputs?.[name];
  if (found === undefined) throw new Error(`${workflow.workflowId}: inputs ${inputs.$ref} not found in the Arazzo document`);
  return found;
}

function workflowMarkdown(document: ArazzoDocument, workflow: ArazzoWorkflow, operations: Operations): string {
  const inputs = inputsOf(document, workflow);
  // Lists, not tables: a wide table scrolls sideways on a phone, out of reach of the keyboard.
  const inputItems = Object.entries(inputs.properties ?? {}).map(([name, input]) => {
    const facts = [
      input.type,
      inputs.required?.includes(name) ? "required" : undefined,
      input.default === undefined ? undefined : `default ${code(JSON.stringify(input.default))}`,
      input.format === "password" ? "secret: masked in every report" : undefined,
    ];
    return `- ${code(name)} (${facts.filter(Boolean).join(", ")}): ${line(input.description ?? "")}`;
  });
  const stepItems = workflow.steps.map((step, index) => {
    const operationId = step.operationId?.split(".").at(-1);
    const operation = operationId === undefined ? undefined : operations[operationId];
    const target =
      operationId === undefined
        ? `runs the workflow ${code(step.workflowId ?? "")}`
        : `${code(`${operation?.method ?? "?"} ${operation?.path ?? operationId}`)} (${operationId})`;
    const criteria = (step.successCriteria ?? []).map((criterion) => `   - ${code(criterion.condition)}`);
    return [
      `${index + 1}. ${code(step.stepId)}: ${target}. ${line(step.description ?? "")}`.trimEnd(),
      ...(criteria.length > 0 ? ["   Success criteria:", ...criteria] : []),
    ].join("\n");
  });
  const outputs = Object.entries(workflow.outputs ?? {}).map(([name, expression]) => `- ${code(name)}: ${code(expression)}`);
  return [
    `## ${workflow.summary ?? workflow.workflowId}`,
    `Workflow ${code(workflow.workflowId)}. ${(workflow.description ?? "").trim()}`,
    ...(inputItems.length > 0 ? ["**Inputs**", inputItems.join("\n")] : []),
    "**Steps**",
    stepItems.join("\n"),
    ...(outputs.length > 0 ? ["**Outputs**", outputs.join("\n")] : []),
  ].join("\n\n");
}

/** The Markdown section of the reference that shows every workflow: its inputs, steps, success criteria and outputs. */
export function workflowsSection(document: ArazzoDocument, operations: Operations): string {
  return `# ${workflowsSectionHeading}

The journeys across the operations, as [Arazzo 1.0](https://spec.openapis.org/arazzo/latest.html) workflows in
\`openapi/workflows/bot-conversation.arazzo.yaml\`. Redocly CLI runs them against any server; against
the sandbox under \`pnpm start\`:
\`redocly respect openapi/workflows/bot-conversation.arazzo.yaml --input token=sandbox-token --server botConversation=http://127.0.0.1:4011\`.

${document.workflows.map((workflow) => workflowMarkdown(document, workflow, operations)).join("\n\n")}
`;
}

/** Returns a copy of the bundled description whose `info.description` ends with the Workflows section, read from the Arazzo document. */
export function withWorkflows<T extends { info: { description?: string }; paths: Record<string, Record<string, unknown>> }>(
  bundle: T,
  document: ArazzoDocument = parse(readFileSync(workflowsPath, "utf8")) as ArazzoDocument,
): T {
  const operations: Operations = {};
  for (const [path, item] of Object.entries(bundle.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const operationId = (operation as { operationId?: string }).operationId;
      if (operationId !== undefined) operations[operationId] = { method: method.toUpperCase(), path };
    }
  }
  return withSection(bundle, workflowsSection(document, operations));
}
