import { ignoredAuth } from "./auth.ts";
import { negativeDataRejection, positiveDataAcceptance } from "./data.ts";
import { filterMatch } from "./filters.ts";
import { envelopeMath } from "./paging.ts";
import { contentTypeConformance, notAServerError, responseSchemaConformance, statusCodeConformance } from "./response.ts";
import type { ExchangeCheck } from "./types.ts";

/** Every check of the kit, by the name reports use, with what it checks in one line. */
export const checkDescriptions = {
  not_a_server_error: "No 5xx, except the documented payload-validation 500 of the fire operation.",
  status_code_conformance: "Every status is documented for its operation.",
  content_type_conformance: "Every body carries a documented Content-Type.",
  response_schema_conformance: "Every body is valid against the description (the export model closed included).",
  ignored_auth: "No token, or a wrong one, is refused with 401 on every operation.",
  negative_data_rejection: "Values the description rules out are refused with a 4xx.",
  positive_data_acceptance: "Values the description allows are accepted (2xx, or 404 for an unknown resource).",
  envelope_math: "The page envelope adds up on every page.",
  paging_walk: "Walking every page yields totalItemCount distinct conversations, no duplicates.",
  filter_match: "Every returned item matches each filter sent.",
  unknown_bot_not_found: "An unknown agentStageId is 404 on the trigger list.",
  unknown_trigger_not_found: "Firing an unknown externalEventId is 404.",
  unknown_conversation_not_found: "Firing into an unknown conversation is 404, by either identifier.",
  payload_validation_rejection: "A wrong value for a variable type is a 500 with details.",
  payload_acceptance: "A right value for a variable type is a 200 with an empty body.",
} as const;

/** Name of a check. */
export type CheckName = keyof typeof checkDescriptions;

/** Every check name, in report order. */
export const checkNames = Object.keys(checkDescriptions) as CheckName[];

/** Checks run on every response the kit receives. */
export const responseChecks: ReadonlyArray<readonly [CheckName, ExchangeCheck]> = [
  ["not_a_server_error", notAServerError],
  ["status_code_conformance", statusCodeConformance],
  ["content_type_conformance", contentTypeConformance],
  ["response_schema_conformance", responseSchemaConformance],
];

/** Checks of the rules that every 200 search page must keep. */
export const pageChecks: ReadonlyArray<readonly [CheckName, ExchangeCheck]> = [
  ["envelope_math", envelopeMath],
  ["filter_match", filterMatch],
];

export { filterMatch, envelopeMath, ignoredAuth, negativeDataRejection, positiveDataAcceptance };
