import { operationConsistencyEntry } from "../consistency.ts";
import { metamorphicRelationsEntry } from "../relations.ts";
import { ignoredAuth, ignoredAuthEntry } from "./auth.ts";
import { negativeDataRejection, negativeDataRejectionEntry, positiveDataAcceptance, positiveDataAcceptanceEntry } from "./data.ts";
import { bodyEncodingEntry } from "./encoding.ts";
import type { CatalogEntry, CatalogRelation } from "./entry.ts";
import type { ProbeFamily, RuleGenerator } from "./family.ts";
import { filterMatch, filterMatchEntry } from "./filters.ts";
import {
  payloadAcceptanceEntry,
  payloadOptionalEntry,
  payloadShapeRejectionEntry,
  payloadValidationRejectionEntry,
  unknownBotNotFoundEntry,
  unknownConversationNotFoundEntry,
  unknownTriggerNotFoundEntry,
} from "./fire.ts";
import { responseHeadersConformanceEntry } from "./headers.ts";
import { identifierEncodingEntry } from "./identifiers.ts";
import { unsupportedMethodEntry } from "./methods.ts";
import { searchModelEntry } from "./model.ts";
import { acceptNegotiationEntry } from "./negotiation.ts";
import { botFilterMatchEntry, emptySearchPageEntry, filterCombinationEntry, filterInclusionEntry } from "./oracles.ts";
import { envelopeMath, envelopeMathEntry, pagingWalkEntry } from "./paging.ts";
import { contentTypeConformanceEntry, notAServerErrorEntry, responseSchemaConformanceEntry, statusCodeConformanceEntry } from "./response.ts";
import { maxResponseTimeEntry } from "./timing.ts";
import type { ExchangeCheck } from "./types.ts";

export type { CatalogEntry, CatalogRelation, JudgedOn, ProbeFamily, RuleGenerator } from "./entry.ts";

/**
 * The kit's one catalog (issue 48, item 7), assembled from the entries each check's module exports, in report order:
 * every check by the name reports use, what it checks in one line, the rule of the seed or description it holds the
 * server to, its function where the session applies it to every response or search page, the phases that feed it
 * (each phase's list of checks is read from here), the relations whose failures are its own, and the probe families
 * that test the seed's rules through it (each with the ids of the rules it tests and its words). `rules.yaml` of
 * `@bot-conversation/openapi` holds only the seed's side of a rule (its id, where the seed states it, its words).
 * Adding a check is its module (its function and its entry, with its families) and its place in this list.
 */
const entries = [
  notAServerErrorEntry,
  statusCodeConformanceEntry,
  contentTypeConformanceEntry,
  responseHeadersConformanceEntry,
  bodyEncodingEntry,
  responseSchemaConformanceEntry,
  maxResponseTimeEntry,
  ignoredAuthEntry,
  acceptNegotiationEntry,
  unsupportedMethodEntry,
  negativeDataRejectionEntry,
  positiveDataAcceptanceEntry,
  envelopeMathEntry,
  pagingWalkEntry,
  filterMatchEntry,
  filterInclusionEntry,
  filterCombinationEntry,
  searchModelEntry,
  metamorphicRelationsEntry,
  operationConsistencyEntry,
  botFilterMatchEntry,
  emptySearchPageEntry,
  identifierEncodingEntry,
  unknownBotNotFoundEntry,
  unknownTriggerNotFoundEntry,
  unknownConversationNotFoundEntry,
  payloadValidationRejectionEntry,
  payloadAcceptanceEntry,
  payloadOptionalEntry,
  payloadShapeRejectionEntry,
] as const satisfies readonly CatalogEntry[];

/** An entry of the catalog, as its module declares it. */
type Entry = (typeof entries)[number];

/** The catalog by check name, in report order. */
export const checkCatalog = Object.fromEntries(entries.map((entry) => [entry.name, entry])) as {
  readonly [Name in Entry["name"]]: Extract<Entry, { name: Name }>;
};

/** Name of a check. */
export type CheckName = Entry["name"];

/** Name of a probe family of the catalog. */
export type FamilyName = Entry["families"][number]["name"];

/** Every check name, in report order. */
export const checkNames = Object.keys(checkCatalog) as CheckName[];

/** What each check checks, in one line, by name. */
export const checkDescriptions = Object.fromEntries(checkNames.map((name) => [name, checkCatalog[name].description])) as Record<CheckName, string>;

/** A check's entry of the catalog, as the catalog's type has it (every field, optional ones included). */
export const catalogEntry = (name: CheckName): CatalogEntry => checkCatalog[name];

/** The checks the phase of this name feeds, in report order: those whose catalog entry names the phase. */
export const checksOfPhase = (phase: string): CheckName[] => checkNames.filter((name) => catalogEntry(name).phases.includes(phase));

/** Every relation of the catalog, in report order: the relations of each check. */
export const catalogRelations: readonly CatalogRelation[] = checkNames.flatMap((name) => catalogEntry(name).relations ?? []);

/** The check a relation's failures are failures of (`metamorphic_relations`, `operation_consistency`): the check whose entry lists it. */
export function checkOfRelation(relation: string): CheckName {
  const check = checkNames.find((name) => catalogEntry(name).relations?.some((each) => each.name === relation));
  if (!check) throw new Error(`checkCatalog: no check lists the relation ${relation}`);
  return check;
}

/** A probe family of the catalog with the checks it feeds (the checks whose entries name it, in report order). */
export interface CatalogFamily extends ProbeFamily {
  readonly name: FamilyName;
  /** The checks it feeds. */
  readonly checks: readonly CheckName[];
}

/** Every probe family of the catalog, once, in report order (of the first check that names it), with the checks it feeds. */
export const catalogFamilies: readonly CatalogFamily[] = [...new Set(checkNames.flatMap((name) => catalogEntry(name).families))].map((family) => ({
  ...family,
  name: family.name as FamilyName,
  checks: checkNames.filter((name) => catalogEntry(name).families.includes(family)),
}));

/** Every generator the catalog's families name, once, in report order: each names the rule of the seed it generates values for. */
export const catalogGenerators: readonly RuleGenerator[] = [...new Set(catalogFamilies.flatMap((family) => family.generators ?? []))];

/** Whether a string names a check. */
export const isCheckName = (name: string): name is CheckName => name in checkCatalog;

/** The checks the catalog runs on every `scope`, with their functions, in report order. */
const checksOnEvery = (scope: "response" | "page"): ReadonlyArray<readonly [CheckName, ExchangeCheck]> =>
  checkNames.flatMap((name) => {
    const entry = catalogEntry(name);
    return entry.onEvery === scope && entry.check ? [[name, entry.check] as const] : [];
  });

/** Checks run on every response the kit receives. */
export const responseChecks = checksOnEvery("response");

/** Checks of the rules that every 200 search page must keep. */
export const pageChecks = checksOnEvery("page");

export { envelopeMath, filterMatch, ignoredAuth, negativeDataRejection, positiveDataAcceptance };
