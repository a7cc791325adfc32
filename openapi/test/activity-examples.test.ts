import { describe, expect, it } from "vitest";
import { type ExampleObject, problemsOf, resolve } from "./support/description.js";

type Json = Record<string, unknown>;
const history = (resolve<ExampleObject>("#/components/examples/ConversationExportFull").value as { history: Json[] }).history;

/** The activity schemas, each with the tag value of the history entry its example must equal. */
const activitySchemas = resolve<{ oneOf: { $ref: string }[] }>("#/components/schemas/EventActivity")
  .oneOf.map(({ $ref }) => $ref)
  .concat("#/components/schemas/MessageActivity");

// The reference's model pages show each activity's own example (Redoc would otherwise merge the
// base's examples into a wrong one); each is an entry of the one exported conversation, so the
// examples tell one story.
describe("each activity schema carries an example from the exported conversation", () => {
  it.each(activitySchemas)("%s", (reference) => {
    const schema = resolve<{ examples?: Json[] }>(reference);
    const [example] = schema.examples ?? [];
    expect(example, `${reference} has no examples`).toBeDefined();
    expect(problemsOf({ $ref: reference }, example)).toEqual([]);
    expect(history).toContainEqual(example);
  });

  it("the message example's sender is not its recipient", () => {
    const [message] = resolve<{ examples: { from: Json; recipient: Json }[] }>("#/components/schemas/MessageActivity").examples;
    expect(message?.from).not.toEqual(message?.recipient);
  });
});
