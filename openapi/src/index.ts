/**
 * `@bot-conversation/openapi`: the description's runtime. `readDescription` reads a parsed document
 * (operations by id, parameters, schemas by name, `$ref`s followed) and `compileDescription` compiles it once
 * (each operation's path matcher, security and responses; the operation of a method and path, the methods of a
 * path); the bundle itself is
 * `@bot-conversation/openapi/openapi.json`. `decisions` are the open points and what the toolkit decides
 * for each (`decisions.yaml`). Validation is `@bot-conversation/openapi/ajv`, a subpath of
 * its own so that a reader does not load Ajv.
 */

export {
  type CompiledDescription,
  type CompiledOperation,
  compileDescription,
  type OperationMatch,
  type OperationOfOptions,
  type SecurityRequirement,
  type SecuritySchemeUse,
} from "./compiled-description.js";
export { parseDateTime } from "./date-time.js";
export {
  type Decision,
  type DecisionId,
  decisionById,
  decisionOfFinding,
  decisions,
  type FindingName,
  type SandboxAnswer,
  sandboxAnswers,
} from "./decisions.js";
export {
  jsonPointer,
  type OpenApiDescription,
  type OperationDescription,
  type ParameterDescription,
  type ParameterLocation,
  pointerKeys,
  pointerSegment,
  readDescription,
  type Schema,
} from "./description.js";
export { decodePathSegment, type PathTemplate, parsePathTemplate } from "./path-template.js";
export { type Rule, type RuleId, rules } from "./rules.js";
export {
  boundSide,
  type DateSearchFilter,
  dateFilters,
  type EqualitySearchFilter,
  type FilterMatch,
  type InstantField,
  type SearchFilter,
  type SearchFilterName,
  type SearchPeriod,
  searchFilters,
  searchPeriods,
} from "./search-filters.js";
export { apiKeyHeaders, httpCredentialHeaders, secretHeaders } from "./secret-headers.js";
