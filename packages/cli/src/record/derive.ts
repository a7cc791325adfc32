/**
 * Every file of a recording but the journal, derived from the journal's entries: each entry validated
 * (`validation.ts`), counted (`report.ts`), read for open points (`open-points.ts`) and entities
 * (`entities.ts`); then `report.json`, `switches.json`, `open-points.json`, `fixture.json` and `report.md`
 * replaced atomically. The recorder feeds it each exchange as it completes; `--rebuild` and `--append`
 * feed it the journal's lines. The same entries give the same bytes.
 */
import { join } from "node:path";
import { loadDescription } from "@bot-conversation/conformance";
import type { ExternalEventTrigger } from "@bot-conversation/types";
import { RecordedEntities } from "./entities.js";
import { derivedFiles, holdFolder, replaceAtomically, replaceText, scratchPath, syncFolder } from "./folder.js";
import { HarEntries } from "./har.js";
import { exchangeOfEntry, type JournalEntry, journalName, readJournal } from "./journal.js";
import { OpenPoints } from "./open-points.js";
import { markdownReport, ReportBuilder, undocumentedOperation } from "./report.js";
import { ExchangeValidator, type MatchedOperation, type Observation } from "./validation.js";

/** What a recording wrote. */
export interface RecordingResult {
  /** Exchanges in the journal (answered by the upstream). */
  readonly exchanges: number;
  /** The files written, by name: the journal and the derived files. */
  readonly files: readonly string[];
}

/** How one exchange was judged: its operation and whether the rules call it invalid. */
export interface Judged {
  /** operationId, or `undocumented`. */
  readonly operationId: string;
  /** What it showed. */
  readonly observations: readonly Observation[];
}

/** The derived files of one folder, built entry by entry. */
export class Derivation {
  readonly #folder: string;
  readonly #keepTexts: boolean;
  readonly #validator = new ExchangeValidator(loadDescription());
  readonly #report = new ReportBuilder();
  readonly #openPoints = new OpenPoints();
  readonly #entities: RecordedEntities;
  readonly #har: HarEntries;
  readonly #notes: string[] = [];
  #exchanges = 0;

  /** `folder`: where the files are written; `keepTexts`: whether the journal holds texts as sent (said in `report.md`). */
  constructor(folder: string, keepTexts = false) {
    this.#folder = folder;
    this.#keepTexts = keepTexts;
    this.#entities = new RecordedEntities(scratchPath(folder, "summaries"));
    this.#har = new HarEntries(scratchPath(folder, "har-entries"));
  }

  /** The operation of a request, or undefined outside the description. */
  match(method: string, path: string): MatchedOperation | undefined {
    return this.#validator.match(method, path);
  }

  /** Adds one entry: judged, counted, read for open points and entities. */
  add(entry: JournalEntry): Judged {
    this.#exchanges += 1;
    this.#har.append(entry);
    const exchange = exchangeOfEntry(entry);
    const operation = this.#validator.match(exchange.method, exchange.path);
    // The open points first: the page base a first page shows is the one its envelope is checked by.
    this.#openPoints.observe(operation?.id, exchange);
    const pageBase = Number(this.#openPoints.switches().pageBase ?? 0);
    const observations = this.#validator.observe(exchange, operation, { pageBase, decisions: {} });
    if (operation?.id === "fireExternalEvent") observations.push(...this.#validator.fireObservations(exchange, this.#triggerListsOf(exchange.requestJson)));
    const operationId = operation?.id ?? undocumentedOperation;
    this.#report.add(operationId, exchange.status, observations, []);
    // What the rules call wrong is not learned: only a valid exchange adds bots, triggers or conversations to the fixture.
    if (observations.some((observation) => !observation.finding)) return { operationId, observations };
    const items = (exchange.json as { items?: unknown } | undefined)?.items;
    // A bot is learned from a search only when the page shows conversations (an empty page shows no bot exists).
    if (operation?.id === "searchConversations" && exchange.status === 200 && Array.isArray(items) && items.length > 0)
      this.#entities.search(exchange.query["agentStageId"], items as never[]);
    if (operation?.id === "listExternalEventTriggers" && exchange.status === 200)
      this.#entities.triggers(operation.pathParameters["agentStageId"]!, exchange.json);
    return { operationId, observations };
  }

  /** The trigger list a fire is judged by: its conversation's bot's, or every recorded list when that bot is not known. */
  #triggerListsOf(body: unknown): { bot: string | undefined; triggers: readonly ExternalEventTrigger[] | undefined } {
    const conversationId = (body as { conversationId?: unknown } | undefined)?.conversationId;
    const bot = typeof conversationId === "string" ? this.#entities.botOf(conversationId) : undefined;
    if (bot !== undefined) return { bot, triggers: this.#entities.triggersOf(bot) };
    const lists = [...this.#entities.triggerLists().values()];
    return { bot: undefined, triggers: lists.length === 0 ? undefined : lists.flat() };
  }

  /** Adds every entry of the folder's journal (a line that is not a whole entry is noted and skipped). */
  async addJournal(): Promise<void> {
    for await (const line of readJournal(join(this.#folder, journalName))) {
      if ("entry" in line) this.add(line.entry);
      else this.#notes.push(`line ${line.badLine} of ${journalName} is not a whole exchange (cut by a crash?); left out`);
    }
  }

  /** Notes to add to `report.md` (requests the upstream did not answer). */
  note(line: string): void {
    this.#notes.push(line);
  }

  /** Replaces every derived file atomically, then syncs the folder. */
  async write(): Promise<RecordingResult> {
    const path = (name: (typeof derivedFiles)[number]) => join(this.#folder, name);
    const built = this.#report.report({ triggerLists: this.#entities.botsWithoutTriggerList() });
    const evidence = this.#openPoints.evidence();
    let fixture: Awaited<ReturnType<RecordedEntities["write"]>>;
    try {
      fixture = await replaceAtomically(path("fixture.json"), (aside) => this.#entities.write(aside));
    } finally {
      this.#entities.discard();
    }
    try {
      await replaceAtomically(path("exchanges.har"), (aside) => this.#har.write(aside));
    } finally {
      this.#har.discard();
    }
    await replaceText(path("report.json"), `${JSON.stringify(built, null, 2)}\n`);
    await replaceText(path("switches.json"), `${JSON.stringify(this.#openPoints.switches(), null, 2)}\n`);
    await replaceText(
      path("open-points.json"),
      `${JSON.stringify(Object.fromEntries(evidence.map(({ key, flag, shown }) => [key, { value: shown.value, flag: `--${flag}`, exchange: shown.exchange, shownBy: shown.shownBy }])), null, 2)}\n`,
    );
    const flags = evidence.map(({ flag, shown }) => `--${flag} ${shellWord(String(shown.value))}`).join(" ");
    await replaceText(
      path("report.md"),
      markdownReport(built, {
        switches: evidence.map(({ flag, shown }) => `--${flag} ${shown.value}: ${shown.exchange} (${shown.shownBy})`),
        // Relative to the recording's folder, so two recordings of the same traffic write the same bytes wherever they are.
        replay: `bot-conversation-sandbox --fixture fixture.json --exchanges exchanges.ndjson${flags ? ` ${flags}` : ""}`,
        fixture: `fixture.json: ${fixture.bots} bot(s), ${fixture.triggers} trigger(s), ${fixture.conversations} conversation(s)${this.#keepTexts ? ", texts and names as sent" : ", end users' texts and names pseudonymised"}; switches.json: ${evidence.length} switch(es), each with the exchange that showed it in open-points.json.`,
        notes: [
          ...fixture.leftOut.map((line) => `left out of the fixture: ${line}`),
          ...built.notRecorded.triggerLists.map((bot) => `not recorded: the trigger list of bot ${bot} (the replay answers it with no trigger)`),
          ...this.#openPoints.notes(),
          ...this.#notes,
        ],
      }),
    );
    syncFolder(this.#folder);
    return { exchanges: this.#exchanges, files: [journalName, ...derivedFiles] };
  }
}

/** A word for a POSIX shell, quoted when it needs to be. */
const shellWord = (text: string): string => (/^[\w./:@%+=-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);

/** `record --rebuild`: every derived file of `folder` written again from its journal (the folder held meanwhile). */
export async function rebuildRecording(folder: string): Promise<RecordingResult> {
  const held = holdFolder(folder, { rebuild: true });
  try {
    const derivation = new Derivation(folder);
    await derivation.addJournal();
    return await derivation.write();
  } finally {
    held.release();
  }
}
