import fc from "fast-check";
import type { Authentication, Case, Exchange } from "./case.ts";
import { hasOffset } from "./checks/filters.ts";
import { type CheckName, checkOfRelation, responseChecks } from "./checks/index.ts";
import { noAnswer } from "./checks/response.ts";
import { type CheckContext, type ExchangeCheck, failureText, type Verdict } from "./checks/types.ts";
import type { AcceptedDecisions } from "./decisions.ts";
import type { Description } from "./description.ts";
import type { Observed } from "./generate.ts";
import { type Relation, type RelationVerdict, relations, transformsPerPhase } from "./relations.ts";
import type { Results } from "./results.ts";
import { BudgetExhaustedError, StoppedError, type Transport, UnreachableError } from "./transport.ts";

/** What the run has learnt about the server so far. */
export interface Knowledge extends Observed {
  /** `pageIndex` of the first page. */
  pageBase: number;
  /** `pageSize` of a search without one, once known. */
  defaultPageSize?: number;
  /** Every search page received, for discovery. */
  readonly pages: Exchange[];
  /** Every error response received (4xx and 5xx), for discovery. */
  readonly errors: Exchange[];
  /** Names of response headers seen, lower case. */
  readonly headerNames: Set<string>;
  /** Conversation summaries seen in search results, by id (at most 2000). */
  readonly items: Map<string, Record<string, unknown>>;
  /** The search answer each item was first seen in (a failure about the item reproduces it too). */
  readonly itemSources: Map<string, Exchange>;
  /** Every exchange in short, for coverage, side effects and the weak-data warning. */
  readonly log: LoggedExchange[];
  /** The pages of the walk of every page (`walkPages`), in order, once the walk held: the data `search_model` models. */
  walk?: Exchange[];
  /** The answers to searches with one value the description rules out, for the `invalid_search_values` finding. */
  readonly invalidSearches: InvalidSearchAnswer[];
}

/** A search with one value the description rules out, and the status it got (the seed shows no search status but success). */
export interface InvalidSearchAnswer {
  /** The parameter whose value the description rules out. */
  readonly parameter: string;
  /** Status of the answer. */
  readonly status: number;
}

/** One exchange in short. */
export interface LoggedExchange {
  /** operationId (or `export`, or the method and path of an undocumented method). */
  readonly operationId: string;
  /** Status, 0 when no response came. */
  readonly status: number;
  /** Names of the query parameters sent. */
  readonly parameters: readonly string[];
  /** Whether a search answered with at least one item. */
  readonly returnedData: boolean;
  /** The exchange itself, for fire requests the server accepted (real side effects). */
  readonly exchange?: Exchange;
}

/** Settings every phase reads. */
export interface PhaseSettings {
  /** Base seed of the generators. */
  readonly seed: number;
  /** Generated requests per property. */
  readonly examples: number;
  /** Whether the run may fire events. */
  readonly allowFire: boolean;
  /** Bot to list triggers of and fire for. */
  readonly agentStageId?: string | undefined;
  /** Conversation to fire into, by its identifier. */
  readonly conversationId?: string | undefined;
  /** Conversation to fire into, by its external identifier. */
  readonly externalConversationId?: string | undefined;
  /** Path of a route returning a conversation export, with `{conversationId}`; none by default. */
  readonly exportPath?: string | undefined;
  /** The open-point decisions the team accepts. */
  readonly decisions: AcceptedDecisions;
  /** The bound of `max_response_time`, when asked for. */
  readonly maxResponseTimeMs?: number | undefined;
  /** Every bad credential of the token (`credentials.ts`: those another token once HTTP reads it), for `ignored_auth`. */
  readonly badCredentials?: readonly Authentication[];
}

/** How one metamorphic relation fared over a run: requests it transformed, and how their answers compared. */
export interface RelationCount {
  /** The relation's name (`head_as_get`). */
  readonly name: string;
  /** What it does, in one line. */
  readonly description: string;
  /** What it rests on, and whether a difference fails or is a finding. */
  readonly rule: string;
  /** Requests it transformed and sent. */
  transformed: number;
  /** Transformed requests answered as the relation says. */
  held: number;
  /** Transformed requests whose answer broke the relation (failures of `metamorphic_relations`). */
  failed: number;
  /** Transformed requests answered another way HTTP allows (the `relation_differences` finding). */
  differed: number;
  /** The distinct differences, at most three. */
  readonly differences: string[];
}

/** One run's shared state: sends cases, applies checks, records outcomes. */
export class Session {
  /** Which check held or failed how often. */
  readonly results: Results;
  /** What was learnt about the server. */
  readonly knowledge: Knowledge;
  private properties = 0;
  /** Operations that answered slower than `--max-response-time`: not sent again (a slow server fails fast). */
  private readonly slow = new Set<string>();
  /** Notes for the report's warnings (an operation no longer sent, and why). */
  readonly warnings: string[] = [];
  /** The phase running (set by the runner): the relations transform requests of every operation in every phase. */
  phase = "";
  /** How each metamorphic relation fared, by name, in report order. */
  readonly relationCounts = new Map<string, RelationCount>();
  /** Requests transformed so far, by relation, operation and phase. */
  private readonly transformedBy = new Map<string, number>();
  /** Relations whose transformed request was sent once more with a wrong token, by relation and operation. */
  private readonly credentialed = new Set<string>();

  /** The description. */
  readonly description: Description;
  /** Run settings. */
  readonly settings: PhaseSettings;
  private readonly transport: Transport;

  constructor(transport: Transport, results: Results, description: Description, settings: PhaseSettings) {
    this.transport = transport;
    this.results = results;
    this.description = description;
    this.settings = settings;
    this.knowledge = {
      pageBase: 0,
      maxPageSize: settings.decisions.maxPageSize,
      agentStageIds: settings.agentStageId ? [settings.agentStageId] : [],
      channelIds: [],
      dates: [],
      pages: [],
      errors: [],
      headerNames: new Set(),
      items: new Map(),
      itemSources: new Map(),
      log: [],
      invalidSearches: [],
    };
  }

  /** Whether another request may be sent (budget left, not stopped). */
  get canSend(): boolean {
    return this.transport.hasBudget;
  }

  /** Requests sent so far. */
  get requestsSent(): number {
    return this.transport.sent;
  }

  /** Every answer that asked the kit to slow down (429, or 503 with `Retry-After`). */
  get rateLimits(): Transport["rateLimits"] {
    return this.transport.rateLimits;
  }

  /** Context for checks. */
  get context(): CheckContext {
    return {
      description: this.description,
      pageBase: this.knowledge.pageBase,
      defaultPageSize: this.knowledge.defaultPageSize,
      decisions: this.settings.decisions,
      maxResponseTimeMs: this.settings.maxResponseTimeMs,
    };
  }

  /**
   * Sends a case and applies the response checks and `checks` to the answer. Returns the exchange and
   * the checks that failed on it, or undefined when no answer came (recorded under `not_a_server_error`).
   */
  async exchange(
    request: Case,
    checks: ReadonlyArray<readonly [CheckName, ExchangeCheck]> = [],
  ): Promise<{ exchange: Exchange; failed: CheckName[] } | undefined> {
    // max_response_time already failed for this operation: its failure is known, and each further call would cost as long.
    if ([...this.slow].some((id) => request.operationId === id || request.operationId.endsWith(` ${this.description.operations.get(id)?.path}`)))
      return undefined;
    let exchange: Exchange;
    try {
      exchange = await this.transport.send(request);
    } catch (error) {
      if (!(error instanceof UnreachableError)) throw error;
      const none: Exchange = { case: request, status: 0, headers: new Headers(), text: "", json: undefined, isJson: false, elapsedMs: 0 };
      this.knowledge.log.push({ operationId: request.operationId, status: 0, parameters: Object.keys(request.query), returnedData: false });
      this.results.record("not_a_server_error", none, noAnswer(error.message)(none, this.context));
      return undefined;
    }
    const failed = this.judge(exchange, checks);
    if (request.relation === undefined) await this.applyRelations(exchange);
    return { exchange, failed };
  }

  /** The count of a relation, made on first use. */
  relationCount(relation: Pick<Relation, "name" | "description" | "rule">): RelationCount {
    let count = this.relationCounts.get(relation.name);
    if (!count) {
      count = { name: relation.name, description: relation.description, rule: relation.rule, transformed: 0, held: 0, failed: 0, differed: 0, differences: [] };
      this.relationCounts.set(relation.name, count);
    }
    return count;
  }

  /**
   * Records what a relation made of two answers: held, a failure of the check the catalog lists the relation under
   * (`metamorphic_relations`, or `operation_consistency` for a relation across operations), or a difference for the finding.
   */
  recordRelation(
    relation: Pick<Relation, "name" | "description" | "rule">,
    transformed: Exchange,
    verdict: RelationVerdict,
    before: readonly Exchange[],
  ): void {
    const check = checkOfRelation(relation.name);
    const count = this.relationCount(relation);
    if (verdict === undefined) {
      count.held += 1;
      this.results.record(check, transformed, undefined);
    } else if ("failure" in verdict) {
      count.failed += 1;
      this.results.record(check, transformed, `${relation.name}: ${verdict.failure}`, before);
    } else {
      count.differed += 1;
      if (count.differences.length < 3 && !count.differences.includes(verdict.difference)) count.differences.push(verdict.difference);
    }
  }

  /**
   * Applies every relation to an exchange the kit sent: the first requests of each operation in each phase are
   * transformed (`transformsPerPhase`), sent, and their answers compared with the original's; the first transformed
   * request of each relation and operation is sent once more with a wrong token (401, as for any request).
   */
  private async applyRelations(original: Exchange): Promise<void> {
    const { case: request } = original;
    // The operations of the description, sent as described: not a probe of an undocumented method, of Accept, or of a bad credential.
    const described = this.description.operations.has(request.operationId) && request.documentedMethods === undefined && request.accept === undefined;
    if (
      !described ||
      request.authentication !== "token" ||
      original.status === 0 ||
      original.status === 429 ||
      !this.results.isSelected("metamorphic_relations")
    )
      return;
    for (const relation of relations) {
      const key = `${relation.name} ${original.case.operationId} ${this.phase}`;
      if ((this.transformedBy.get(key) ?? 0) >= transformsPerPhase || !this.canSend) continue;
      const transformed = relation.transform(original);
      if (!transformed) continue;
      this.transformedBy.set(key, (this.transformedBy.get(key) ?? 0) + 1);
      const answer = await this.exchange({ ...transformed, relation: relation.name });
      if (!answer) continue;
      this.relationCount(relation).transformed += 1;
      this.recordRelation(relation, answer.exchange, relation.compare(original, answer.exchange), [original]);
      // The credential rule on the relation's request, where the request is otherwise taken (a refusal may come before the token's check).
      const credential = `${relation.name} ${original.case.operationId}`;
      const taken = answer.exchange.status >= 200 && answer.exchange.status < 300;
      if (taken && !this.credentialed.has(credential) && this.canSend) {
        this.credentialed.add(credential);
        await this.exchange({ ...transformed, relation: relation.name, authentication: "wrong" });
      }
    }
  }

  /** Learns from an exchange and applies the response checks and `checks` to it; returns the checks that failed. */
  judge(exchange: Exchange, checks: ReadonlyArray<readonly [CheckName, ExchangeCheck]> = []): CheckName[] {
    this.learn(exchange);
    const failed: CheckName[] = [];
    for (const [name, check] of [...responseChecks, ...checks]) {
      if (!this.results.isSelected(name)) continue;
      const verdict = check(exchange, this.context);
      this.results.record(name, exchange, verdict);
      if (failureText(verdict) !== undefined) failed.push(name);
    }
    if (failed.includes("max_response_time") && !this.slow.has(exchange.case.operationId)) {
      this.slow.add(exchange.case.operationId);
      this.warnings.push(
        `${exchange.case.operationId} answered after ${Math.round(exchange.elapsedMs)} ms, past --max-response-time: it was not sent again, so the checks that need it ran no further (a slow server fails fast).`,
      );
    }
    return failed;
  }

  /** Records the outcome of a check judged outside `exchange` (walks, fire rules). */
  record(name: CheckName, exchange: Exchange, verdict: Verdict, before: readonly Exchange[] = []): void {
    this.results.record(name, exchange, verdict, before);
  }

  /** Whether a check runs in this run (`--checks`, `--exclude-checks`). */
  runs(name: CheckName): boolean {
    return this.results.isSelected(name);
  }

  /**
   * Explores a property with fast-check. `run` sends one generated case and returns the checks that
   * failed on it; fast-check then shrinks the input, so the report shows the smallest failing request.
   * Once a check's failure is shrunk, exploring goes on for the other checks (a failure found early
   * does not hide the rest), within `numRuns` generated cases in all. Seeded per property. `examples` are tried
   * first, within `numRuns` (fast-check's own `examples`): the familiar values beside the whole space.
   */
  async explore<T>(
    arbitrary: fc.Arbitrary<T>,
    run: (value: T) => Promise<CheckName[]>,
    numRuns = this.settings.examples,
    examples: readonly T[] = [],
  ): Promise<void> {
    this.properties += 1;
    const reported = new Set<CheckName>();
    let remaining = numRuns;
    for (let attempt = 0; remaining > 0 && this.canSend; attempt++) {
      let lastNew: CheckName[] = [];
      const details = await fc.check(
        fc.asyncProperty(arbitrary, async (value) => {
          if (!this.canSend) return true;
          try {
            const fresh = (await run(value)).filter((name) => !reported.has(name));
            if (fresh.length > 0) lastNew = fresh;
            return fresh.length === 0;
          } catch (error) {
            // Out of budget or stopped: count the case as holding, so fast-check ends quickly and the report stands.
            if (error instanceof BudgetExhaustedError || error instanceof StoppedError) return true;
            throw error;
          }
        }),
        {
          seed: this.settings.seed + this.properties * 1000 + attempt,
          numRuns: remaining,
          ...(attempt === 0 ? { examples: examples.map((value) => [value] as [T]) } : {}),
        },
      );
      if (!details.failed || lastNew.length === 0) return;
      for (const name of lastNew) reported.add(name);
      remaining -= details.numRuns;
    }
  }

  private learn(exchange: Exchange): void {
    for (const name of exchange.headers.keys()) this.knowledge.headerNames.add(name.toLowerCase());
    const items =
      exchange.case.operationId === "searchConversations" && exchange.status === 200 && exchange.isJson
        ? (exchange.json as { items?: unknown } | null)?.items
        : undefined;
    const fired = exchange.case.operationId === "fireExternalEvent" && exchange.status >= 200 && exchange.status < 300;
    this.knowledge.log.push({
      operationId: exchange.case.operationId,
      status: exchange.status,
      parameters: Object.keys(exchange.case.query),
      returnedData: Array.isArray(items) && items.length > 0,
      ...(fired ? { exchange } : {}),
    });
    if (exchange.status >= 400 && this.knowledge.errors.length < 200) this.knowledge.errors.push(exchange);
    // A relation's request is another spelling of one already learnt from.
    if (exchange.case.operationId === "searchConversations" && exchange.status === 200 && exchange.isJson && exchange.case.relation === undefined) {
      this.knowledge.pages.push(exchange);
      // With --agent-stage-id the edges and oracles search that bot: conversations of other bots are not theirs to look for.
      const bot = this.settings.agentStageId;
      if (bot !== undefined && exchange.case.query["agentStageId"] !== bot) return;
      // The body as the server sent it: any JSON (null, an array, a number) is read without a throw.
      const json = exchange.json;
      const items = typeof json === "object" && json !== null ? (json as { items?: unknown }).items : undefined;
      if (!Array.isArray(items)) return;
      const channelIds = this.knowledge.channelIds as string[];
      const dates = this.knowledge.dates as string[];
      for (const item of (items as unknown[]).filter((entry): entry is Record<string, unknown> => typeof entry === "object" && entry !== null)) {
        if (typeof item["id"] === "string" && this.knowledge.items.size < 2000 && !this.knowledge.items.has(item["id"])) {
          this.knowledge.items.set(item["id"], item);
          this.knowledge.itemSources.set(item["id"], exchange);
        }
        if (typeof item["channelId"] === "string" && !channelIds.includes(item["channelId"]) && channelIds.length < 20) channelIds.push(item["channelId"]);
        for (const key of ["startedOn", "latestMessageOn"]) {
          // Only dates that name an instant by the one date rule: the generators compute with them.
          if (hasOffset(item[key]) && dates.length < 50) dates.push(item[key]);
        }
      }
    }
  }
}
