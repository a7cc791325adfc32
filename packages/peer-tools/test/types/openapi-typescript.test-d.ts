import { expectTypeOf, test } from "vitest";
import type { components } from "../../generated/openapi-typescript.ts";
import type { AllPass, PeerTypeChecks } from "./checks.ts";

test("openapi-typescript's types pass every check", () => {
  expectTypeOf<PeerTypeChecks<components["schemas"]>>().toEqualTypeOf<AllPass>();
});
