/**
 * `@bot-conversation/openapi`: the description's runtime. `readDescription` reads a parsed document
 * (operations by id, parameters, schemas by name, `$ref`s followed); the bundle itself is
 * `@bot-conversation/openapi/openapi.json`. `decisions` are the open points and what the toolkit decides
 * for each (`decisions.yaml`). Validation is `@bot-conversation/openapi/ajv`, a subpath of
 * its own so that a reader does not load Ajv.
 */
export { jsonPointer, pointerKeys, pointerSegment, readDescription, type OpenApiDescription, type OperationDescription, type ParameterDescription, type ParameterLocation, type Schema } from "./description.js";
export { parseDateTime } from "./date-time.js";
export { decisionById, decisionOfFinding, decisions, sandboxAnswers, type Decision, type DecisionId, type FindingName, type SandboxAnswer } from "./decisions.js";
