import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { redocly, redoclyConfig } from "../scripts/redocly.js";
import { description } from "./support/description.ts";

/** The Arazzo document's inputs, as the tests read them. */
interface Inputs {
  properties: Record<string, { default?: unknown; format?: string }>;
}
const workflows = parse(readFileSync(new URL("../workflows/bot-conversation.arazzo.yaml", import.meta.url), "utf8")) as {
  components: { inputs: Record<string, Inputs> };
  workflows: { workflowId: string; inputs: Inputs | { $ref: string } }[];
};
const examples = description.components.examples as Record<string, { value: Record<string, unknown> }>;
const parameterExample = (name: string) =>
  (description as unknown as { components: { parameters: Record<string, { example: unknown }> } }).components.parameters[name]!.example;

describe("the Arazzo workflows", () => {
  it("pass redocly lint with no problem", () => {
    const { stdout } = redocly("lint", "bot-conversation-workflows@v1", "--config", redoclyConfig, "--format", "json");
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: { message: string }[] };
    expect(report.problems.map((problem) => problem.message)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("default their identifiers to the description's example identifiers", () => {
    const { fire, botConversations } = workflows.components.inputs;
    expect(botConversations!.properties["agentStageId"]!.default).toBe(parameterExample("AgentStageIdPath"));
    expect(fire!.properties["agentStageId"]!.default).toBe(parameterExample("AgentStageIdPath"));
    expect(fire!.properties["conversationId"]!.default).toBe(examples["FireStringVariable"]!.value["conversationId"]);
    expect(`${String(fire!.properties["sessionId"]!.default)}|livechat`).toBe(examples["FirePersonNameVariable"]!.value["externalConversationId"]);
  });

  it("take the token as a secret input (masked in respect's output) in every workflow", () => {
    for (const workflow of workflows.workflows) {
      const inputs = "$ref" in workflow.inputs ? workflows.components.inputs[workflow.inputs.$ref.split("/").at(-1)!]! : workflow.inputs;
      expect(inputs.properties["token"], workflow.workflowId).toMatchObject({ format: "password" });
    }
  });
});
