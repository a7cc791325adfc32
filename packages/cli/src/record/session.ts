/**
 * One recording being made in its folder, whatever feeds it (the recorder's live traffic, a HAR file):
 * the folder held, each exchange turned into its journal entry (secrets removed where they stand, end
 * users' words pseudonymised), appended to the journal and judged by the derivation; at the end every
 * derived file written and the folder released.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { loadDescription } from "@bot-conversation/conformance";
import { Derivation, type Judged, type RecordingResult } from "./derive.js";
import { holdFolder } from "./folder.js";
import { readHar } from "./har.js";
import { JournalWriter, journalName } from "./journal.js";
import { summaryPseudonymizer } from "./pseudonyms.js";
import { journalEntryOf, type RawExchange } from "./redact.js";

/** Where a recording goes and what it keeps. */
export interface SessionOptions {
  /** The folder (made when missing; refused when it holds a recording, unless `append`). */
  readonly out: string;
  /** Continue the recording the folder holds. */
  readonly append?: boolean;
  /** Key of the pseudonyms; default a random one for this recording. */
  readonly salt?: string;
  /** Write end users' texts and names as they are. */
  readonly keepTexts?: boolean;
  /** More fields to pseudonymise: JSON pointers into a conversation summary. */
  readonly personal?: readonly string[];
  /** Record only these operations' exchanges (operationIds); default every exchange. */
  readonly operations?: readonly string[];
}

/** A recording being made. */
export class RecordingSession {
  readonly #derivation: Derivation;
  readonly #journal: JournalWriter;
  readonly #release: () => void;
  readonly #pseudonymize: (<T>(summary: T) => T) | undefined;
  readonly #operations: readonly string[] | undefined;

  private constructor(derivation: Derivation, journal: JournalWriter, release: () => void, options: SessionOptions) {
    this.#derivation = derivation;
    this.#journal = journal;
    this.#release = release;
    this.#operations = options.operations;
    this.#pseudonymize = options.keepTexts ? undefined : summaryPseudonymizer(options.salt ?? randomBytes(32).toString("hex"), options.personal ?? []);
  }

  /** Checks the options, holds the folder and reads the journal it holds (with `append`); a `TypeError` names a bad `--operation`. */
  static async open(options: SessionOptions): Promise<RecordingSession> {
    const known = [...loadDescription().operations.keys()];
    const unknown = options.operations?.find((id) => !known.includes(id));
    if (unknown !== undefined)
      throw new TypeError(`--operation: expected an operationId of the description (${known.join(", ")}); got ${JSON.stringify(unknown)}`);
    const folder = holdFolder(options.out, { append: options.append === true });
    try {
      const derivation = new Derivation(options.out, options.keepTexts === true);
      if (folder.hasJournal) await derivation.addJournal();
      return new RecordingSession(derivation, new JournalWriter(join(options.out, journalName)), folder.release, options);
    } catch (error) {
      folder.release();
      throw error;
    }
  }

  /** Journals and judges one exchange; undefined when `operations` leaves it out. */
  take(raw: RawExchange): Judged | undefined {
    const operation = this.#derivation.match(raw.method, raw.target.pathname);
    if (this.#operations && !this.#operations.includes(operation?.id ?? "")) return undefined;
    const pseudonymize = this.#pseudonymize;
    const entry = journalEntryOf(
      raw,
      pseudonymize && operation?.id === "searchConversations" && raw.status === 200 ? (json) => pseudonymizePage(json, pseudonymize) : undefined,
    );
    this.#journal.append(entry);
    return this.#derivation.add(entry);
  }

  /** A note for `report.md`. */
  note(line: string): void {
    this.#derivation.note(line);
  }

  /** Closes the journal, writes every derived file and releases the folder. */
  async finish(): Promise<RecordingResult> {
    this.#journal.close();
    try {
      return await this.#derivation.write();
    } finally {
      this.#release();
    }
  }

  /** Closes the journal and releases the folder, writing nothing more. */
  abandon(): void {
    this.#journal.close();
    this.#release();
  }
}

/** A search page with each item pseudonymised. */
function pseudonymizePage(json: unknown, pseudonymize: <T>(summary: T) => T): unknown {
  const page = json as { items?: unknown };
  return typeof page === "object" && page !== null && Array.isArray(page.items) ? { ...page, items: page.items.map((item) => pseudonymize(item)) } : json;
}

/** `record --from-har`: a HAR file's exchanges of the description's operations recorded into a new folder, as live traffic would be. */
export async function recordFromHar(file: string, options: SessionOptions): Promise<RecordingResult> {
  const { exchanges, unanswered } = await readHar(file);
  const session = await RecordingSession.open({ ...options, operations: options.operations ?? [...loadDescription().operations.keys()] });
  let other = 0;
  try {
    for (const raw of exchanges) if (session.take(raw) === undefined) other += 1;
  } catch (error) {
    session.abandon();
    throw error;
  }
  if (other > 0)
    session.note(
      `${other} entr${other === 1 ? "y" : "ies"} of the HAR left out: no operation of the description${options.operations ? " recorded (--operation)" : " (pages, scripts, images)"}`,
    );
  if (unanswered > 0) session.note(`${unanswered} entr${unanswered === 1 ? "y" : "ies"} of the HAR left out: no answer (status 0: blocked or aborted)`);
  return session.finish();
}
