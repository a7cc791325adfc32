import { expectTypeOf, test } from "vitest";
import type * as generated from "../../generated/hey-api/types.gen.ts";
import type { AllPass, PeerTypeChecks } from "./checks.ts";

/** The generator's models under the description's schema names. */
type Models = {
  FireExternalEventRequest: generated.FireExternalEventRequest;
  ConversationExport: generated.ConversationExport;
  ConversationPage: generated.ConversationPage;
  ErrorDetails: generated.ErrorDetails;
};

test("@hey-api/openapi-ts's types pass every check", () => {
  expectTypeOf<PeerTypeChecks<Models>>().toEqualTypeOf<AllPass>();
});
