import { expectTypeOf, test } from "vitest";
import type * as generated from "../../generated/orval/model/index.ts";
import type { AllPass, PeerTypeChecks } from "./checks.ts";

/** The generator's models under the description's schema names. */
type Models = {
  FireExternalEventRequest: generated.FireExternalEventRequest;
  ConversationExport: generated.ConversationExport;
  ConversationPage: generated.ConversationPage;
  ErrorDetails: generated.ErrorDetails;
};

test("orval's types pass every check", () => {
  expectTypeOf<PeerTypeChecks<Models>>().toEqualTypeOf<AllPass>();
});
