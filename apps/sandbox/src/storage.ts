import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import type { ConversationExport, ExternalEventTrigger } from "@bot-conversation/types";

/** A bot and its triggers, as stored. */
export interface StoredBot {
  /** Bot identifier. */
  readonly agentStageId: string;
  /** The bot's triggers, in their order. */
  readonly triggers: readonly ExternalEventTrigger[];
}

/** A conversation as stored: its bot, start, and export (the summary is derived from the export). */
export interface StoredConversation {
  /** The bot the conversation belongs to. */
  readonly agentStageId: string;
  /** Start of the conversation, as given (ISO 8601 with offset). */
  readonly startedOn: string;
  /** The conversation as the export model. */
  readonly conversation: ConversationExport;
}

/** Filters of a search, already checked; dates as epoch milliseconds. */
export interface SearchFilters {
  /** Bot identifier. */
  readonly agentStageId?: string | undefined;
  /** Conversation status, as stored. */
  readonly status?: string | undefined;
  /** Channel identifier. */
  readonly channelId?: string | undefined;
  /** Earliest start (inclusive). */
  readonly startFrom?: number | undefined;
  /** Latest start. */
  readonly startTo?: number | undefined;
  /** Earliest last message (inclusive). */
  readonly latestMessageFrom?: number | undefined;
  /** Latest last message. */
  readonly latestMessageTo?: number | undefined;
  /** Whether the `...To` bounds include their instant. */
  readonly toInclusive: boolean;
}

/** An external event the sandbox accepted. */
export interface FiredEventRecord {
  /** When it was received, ISO 8601 in UTC. */
  readonly receivedAt: string;
  /** Both identifiers as sent. */
  readonly sent: { readonly conversationId: string | null; readonly externalConversationId: string | null };
  /** The external event fired. */
  readonly externalEventId: string;
  /** The payload as sent, or `null`. */
  readonly externalEventPayload: Record<string, unknown> | null;
  /** The conversation the event resolved to. */
  readonly conversationId: string;
}

/** Columns a conversation is searched and sorted by, derived from its export when it is stored. */
export interface ConversationColumns {
  /** Start, epoch ms. */
  readonly startedOnMs: number;
  /** Time of the last message, epoch ms. */
  readonly latestMessageOnMs: number;
  /** Platform session identifier, or `null`. */
  readonly sessionId: string | null;
  /** The search summary as JSON text, without `latestMessageDirection`. */
  readonly summary: string;
  /** Whether the user (not the bot) sent the last message. */
  readonly latestMessageInbound: boolean;
}

/** One item of a search page: the stored summary and what its direction depends on. */
export interface SummaryRow {
  /** The search summary as JSON text, without `latestMessageDirection`. */
  readonly summary: string;
  /** Whether the user sent the last message. */
  readonly inbound: boolean;
}

/**
 * The orders a search can sort by (the `order` switch), as SQL. Ties follow the load order in the
 * direction of the sort (newest first: the last loaded first). Every index holds `load_order` right
 * after its sort column, so a page is read off an index in this order without sorting.
 */
const orderBy = {
  "startedOn-desc": "started_on_ms DESC, load_order DESC",
  "startedOn-asc": "started_on_ms ASC, load_order ASC",
  "latestMessageOn-desc": "latest_message_on_ms DESC, load_order DESC",
} as const;

/** A search order the storage knows. */
export type SearchOrder = keyof typeof orderBy;

/** The columns a search filters on; every index holds all of them, so a search never reads the table itself. */
const filterColumns = ["bot", "status", "channel_id", "started_on_ms", "latest_message_on_ms"] as const;

/**
 * One index per filter (and per filter under a bot, since a search is usually of one bot), each led by
 * its columns, then `load_order` (the tie-break of the sort, so the index order is the page order), then
 * the other filter columns.
 */
const indexes: Record<string, readonly (typeof filterColumns)[number][]> = {
  by_bot: ["bot", "started_on_ms"],
  by_bot_status: ["bot", "status", "started_on_ms"],
  by_bot_channel: ["bot", "channel_id", "started_on_ms"],
  by_bot_latest: ["bot", "latest_message_on_ms"],
  by_status: ["status", "started_on_ms"],
  by_channel: ["channel_id", "started_on_ms"],
  by_start: ["started_on_ms"],
  by_latest: ["latest_message_on_ms"],
};

const createSearchIndexes = Object.entries(indexes)
  .map(([name, lead]) => `CREATE INDEX IF NOT EXISTS conversations_${name} ON conversations (${[...lead, "load_order", ...filterColumns.filter((column) => !lead.includes(column))].join(", ")});`)
  .join("\n");
const dropSearchIndexes = Object.keys(indexes).map((name) => `DROP INDEX IF EXISTS conversations_${name};`).join("\n");

/** Layout version of the database, kept in `PRAGMA user_version`; a file of another layout is refused. */
const schemaVersion = 3;

const schema = `
  PRAGMA journal_mode = WAL;
  PRAGMA synchronous = NORMAL;
  CREATE TABLE IF NOT EXISTS bots (agent_stage_id TEXT NOT NULL UNIQUE, position INTEGER NOT NULL) STRICT;
  CREATE TABLE IF NOT EXISTS triggers (
    agent_stage_id TEXT NOT NULL, external_event_id TEXT NOT NULL, position INTEGER NOT NULL, descriptor TEXT NOT NULL,
    PRIMARY KEY (agent_stage_id, external_event_id)) STRICT;
  CREATE TABLE IF NOT EXISTS conversations (
    load_order INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, bot INTEGER NOT NULL, channel_id TEXT NOT NULL, status TEXT NOT NULL,
    started_on TEXT NOT NULL, started_on_ms INTEGER NOT NULL, latest_message_on_ms INTEGER NOT NULL, session_id TEXT,
    summary TEXT NOT NULL, latest_message_inbound INTEGER NOT NULL) STRICT;
  CREATE TABLE IF NOT EXISTS conversation_exports (conversation INTEGER PRIMARY KEY, export TEXT NOT NULL) STRICT;
  CREATE TABLE IF NOT EXISTS fired_events (
    sequence INTEGER PRIMARY KEY AUTOINCREMENT, received_at TEXT NOT NULL, sent_conversation_id TEXT,
    sent_external_conversation_id TEXT, external_event_id TEXT NOT NULL, payload TEXT, conversation_id TEXT NOT NULL) STRICT;
  ${createSearchIndexes}
  CREATE INDEX IF NOT EXISTS conversations_by_session ON conversations (session_id) WHERE session_id IS NOT NULL;
  CREATE INDEX IF NOT EXISTS fired_events_by_conversation ON fired_events (conversation_id);
  CREATE INDEX IF NOT EXISTS fired_events_by_event ON fired_events (external_event_id);
`;

/** The sandbox's database: every SQL statement of the sandbox lives here. */
export class Storage {
  readonly #database: DatabaseSync;
  readonly #statements;

  /** Opens (and creates when needed) the database at `path`, or in memory when `path` is undefined. */
  constructor(path: string | undefined) {
    this.#database = new DatabaseSync(path ?? ":memory:");
    const { user_version: version } = this.#database.prepare("PRAGMA user_version").get() as { user_version: number };
    const tables = this.#database.prepare("SELECT count(*) AS count FROM sqlite_schema").get() as { count: number };
    if (tables.count > 0 && version !== schemaVersion) {
      this.#database.close();
      throw new Error(`${path} holds a sandbox database of another layout (version ${version}, expected ${schemaVersion}); start with a new --data file`);
    }
    this.#database.exec(schema);
    this.#database.exec(`PRAGMA user_version = ${schemaVersion}`);
    const prepare = (sql: string) => this.#database.prepare(sql);
    this.#statements = {
      insertBot: prepare("INSERT INTO bots (agent_stage_id, position) VALUES (?, ?) RETURNING rowid AS bot"),
      insertTrigger: prepare("INSERT INTO triggers (agent_stage_id, external_event_id, position, descriptor) VALUES (?, ?, ?, ?)"),
      insertConversation: prepare(
        "INSERT INTO conversations (id, bot, channel_id, status, started_on, started_on_ms, latest_message_on_ms, session_id, summary, latest_message_inbound) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ),
      insertExport: prepare("INSERT INTO conversation_exports (conversation, export) VALUES (last_insert_rowid(), ?)"),
      bot: prepare("SELECT 1 FROM bots WHERE agent_stage_id = ?"),
      triggers: prepare("SELECT descriptor FROM triggers WHERE agent_stage_id = ? ORDER BY position"),
      trigger: prepare("SELECT descriptor FROM triggers WHERE agent_stage_id = ? AND external_event_id = ?"),
      conversationById: prepare("SELECT c.id, b.agent_stage_id FROM conversations AS c JOIN bots AS b ON b.rowid = c.bot WHERE c.id = ?"),
      conversationBySession: prepare("SELECT c.id, b.agent_stage_id FROM conversations AS c JOIN bots AS b ON b.rowid = c.bot WHERE c.session_id = ? ORDER BY c.rowid LIMIT 1"),
      export: prepare("SELECT e.export FROM conversations AS c JOIN conversation_exports AS e ON e.conversation = c.rowid WHERE c.id = ?"),
      insertFiredEvent: prepare(
        "INSERT INTO fired_events (received_at, sent_conversation_id, sent_external_conversation_id, external_event_id, payload, conversation_id) VALUES (?, ?, ?, ?, ?, ?)",
      ),
      counts: prepare("SELECT (SELECT count(*) FROM bots) AS bots, (SELECT count(*) FROM conversations) AS conversations"),
      bots: prepare(
        "SELECT b.agent_stage_id, (SELECT json_group_array(external_event_id) FROM (SELECT external_event_id FROM triggers AS t WHERE t.agent_stage_id = b.agent_stage_id ORDER BY position)) AS triggers, (SELECT count(*) FROM conversations AS c WHERE c.bot = b.rowid) AS conversations FROM bots AS b ORDER BY b.position",
      ),
    };
  }

  /** Whether the database holds no bot and no conversation (a new file, or memory). */
  isEmpty(): boolean {
    const { bots, conversations } = this.counts();
    return bots === 0 && conversations === 0;
  }

  /** Number of bots and conversations. */
  counts(): { bots: number; conversations: number } {
    const row = this.#statements.counts.get() as { bots: number; conversations: number };
    return { bots: row.bots, conversations: row.conversations };
  }

  /**
   * Replaces every bot, conversation and fired event in one transaction: on any error nothing
   * changes. `columnsOf` derives the searched columns of each conversation.
   */
  replaceAll(bots: Iterable<StoredBot>, conversations: Iterable<StoredConversation>, columnsOf: (conversation: StoredConversation) => ConversationColumns): void {
    this.#transaction(() => {
      this.#database.exec("DELETE FROM bots; DELETE FROM triggers; DELETE FROM conversations; DELETE FROM conversation_exports; DELETE FROM fired_events;");
      // Building each index once over the loaded rows (a sort) is much faster than keeping eight indexes up to date row by row.
      this.#database.exec(dropSearchIndexes);
      const botKeys = new Map<string, number>();
      for (const bot of bots) {
        const { bot: key } = this.#statements.insertBot.get(bot.agentStageId, botKeys.size) as { bot: number };
        botKeys.set(bot.agentStageId, key);
        bot.triggers.forEach((trigger, position) =>
          this.#statements.insertTrigger.run(bot.agentStageId, trigger.externalEventId, position, JSON.stringify(trigger)),
        );
      }
      for (const stored of conversations) {
        const { conversation } = stored;
        const columns = columnsOf(stored);
        const bot = botKeys.get(stored.agentStageId);
        if (bot === undefined) throw new Error(`Conversation ${conversation.id} names no known bot (${stored.agentStageId})`);
        this.#statements.insertConversation.run(
          conversation.id, bot, conversation.channelId, conversation.status,
          stored.startedOn, columns.startedOnMs, columns.latestMessageOnMs, columns.sessionId, columns.summary, columns.latestMessageInbound ? 1 : 0,
        );
        this.#statements.insertExport.run(JSON.stringify(conversation));
      }
      this.#database.exec(createSearchIndexes);
    });
    // Statistics for the query planner, so it picks the index of the most selective filter; sampled, to stay quick.
    this.#database.exec("PRAGMA analysis_limit = 2000; ANALYZE;");
  }

  /** One page of a search, and the number of matches; each item as its stored summary. */
  search(filters: SearchFilters, order: SearchOrder, limit: number, offset: number): { total: number; items: SummaryRow[] } {
    const where: string[] = [];
    const values: SQLInputValue[] = [];
    const add = (condition: string, value: SQLInputValue | undefined) => {
      if (value === undefined) return;
      where.push(condition);
      values.push(value);
    };
    const to = filters.toInclusive ? "<=" : "<";
    add("bot = (SELECT rowid FROM bots WHERE agent_stage_id = ?)", filters.agentStageId);
    add("status = ?", filters.status);
    add("channel_id = ?", filters.channelId);
    add("started_on_ms >= ?", filters.startFrom);
    add(`started_on_ms ${to} ?`, filters.startTo);
    add("latest_message_on_ms >= ?", filters.latestMessageFrom);
    add(`latest_message_on_ms ${to} ?`, filters.latestMessageTo);
    const condition = where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
    const { total } = this.#prepared(`SELECT count(*) AS total FROM conversations ${condition}`).get(...values) as { total: number };
    if (offset >= total || limit === 0) return { total, items: [] };
    // The filters and the order are served by an index; SQLite reads a table row (for its summary) only for the rows of the page.
    // `? + 0`, not a bare `?`: SQLite plans with a bare LIMIT parameter's value, so it prepared the statement again on every search.
    const page = this.#prepared(`SELECT summary, latest_message_inbound FROM conversations ${condition} ORDER BY ${orderBy[order]} LIMIT (? + 0) OFFSET (? + 0)`, true).all(...values, limit, offset) as unknown as [string, number][];
    return { total, items: page.map(([summary, inbound]) => ({ summary, inbound: inbound === 1 })) };
  }

  /** Every bot in load order, with its triggers' identifiers and its number of conversations. */
  bots(): { agentStageId: string; externalEventIds: string[]; conversations: number }[] {
    const rows = this.#statements.bots.all() as { agent_stage_id: string; triggers: string; conversations: number }[];
    return rows.map((row) => ({ agentStageId: row.agent_stage_id, externalEventIds: JSON.parse(row.triggers) as string[], conversations: row.conversations }));
  }

  /** The bot's triggers in order, or `undefined` when there is no such bot. */
  triggersOf(agentStageId: string): ExternalEventTrigger[] | undefined {
    if (this.#statements.bot.get(agentStageId) === undefined) return undefined;
    return (this.#statements.triggers.all(agentStageId) as { descriptor: string }[]).map((row) => JSON.parse(row.descriptor) as ExternalEventTrigger);
  }

  /** One trigger of a bot, or `undefined`. */
  trigger(agentStageId: string, externalEventId: string): ExternalEventTrigger | undefined {
    const row = this.#statements.trigger.get(agentStageId, externalEventId) as { descriptor: string } | undefined;
    return row && (JSON.parse(row.descriptor) as ExternalEventTrigger);
  }

  /** A conversation's identifier and bot, by conversation identifier or by platform session identifier. */
  findConversation(by: "id" | "sessionId", value: string): { id: string; agentStageId: string } | undefined {
    const statement = by === "id" ? this.#statements.conversationById : this.#statements.conversationBySession;
    const row = statement.get(value) as { id: string; agent_stage_id: string } | undefined;
    return row && { id: row.id, agentStageId: row.agent_stage_id };
  }

  /** A conversation as the export model, or `undefined`. */
  exportOf(conversationId: string): ConversationExport | undefined {
    const row = this.#statements.export.get(conversationId) as { export: string } | undefined;
    return row && (JSON.parse(row.export) as ConversationExport);
  }

  /** Records an accepted external event; it is on disk (with `--data`) when this returns. */
  recordFiredEvent(event: FiredEventRecord): void {
    this.#statements.insertFiredEvent.run(
      event.receivedAt, event.sent.conversationId, event.sent.externalConversationId,
      event.externalEventId, event.externalEventPayload === null ? null : JSON.stringify(event.externalEventPayload), event.conversationId,
    );
  }

  /** The accepted external events, oldest first, optionally of one conversation and/or one external event. */
  firedEvents(filter: { conversationId?: string | undefined; externalEventId?: string | undefined }): FiredEventRecord[] {
    const rows = this.#prepared(
      `SELECT * FROM fired_events WHERE (?1 IS NULL OR conversation_id = ?1) AND (?2 IS NULL OR external_event_id = ?2) ORDER BY sequence`,
    ).all(filter.conversationId ?? null, filter.externalEventId ?? null) as {
      received_at: string; sent_conversation_id: string | null; sent_external_conversation_id: string | null;
      external_event_id: string; payload: string | null; conversation_id: string;
    }[];
    return rows.map((row) => ({
      receivedAt: row.received_at,
      sent: { conversationId: row.sent_conversation_id, externalConversationId: row.sent_external_conversation_id },
      externalEventId: row.external_event_id,
      externalEventPayload: row.payload === null ? null : (JSON.parse(row.payload) as Record<string, unknown>),
      conversationId: row.conversation_id,
    }));
  }

  /** Forgets every accepted external event; the data stays. */
  clearFiredEvents(): void {
    this.#database.exec("DELETE FROM fired_events");
  }

  /** Closes the database. */
  close(): void {
    if (this.#database.isOpen) this.#database.close();
  }

  readonly #cache = new Map<string, ReturnType<DatabaseSync["prepare"]>>();

  /** The statement of `sql`, prepared once; `returnArrays` gives rows as arrays (cheaper than objects). */
  #prepared(sql: string, returnArrays = false) {
    let statement = this.#cache.get(sql);
    if (!statement) {
      statement = this.#database.prepare(sql);
      statement.setReturnArrays(returnArrays);
      this.#cache.set(sql, statement);
    }
    return statement;
  }

  #transaction(work: () => void): void {
    this.#database.exec("BEGIN IMMEDIATE");
    try {
      work();
      this.#database.exec("COMMIT");
    } catch (error) {
      this.#database.exec("ROLLBACK");
      throw error;
    }
  }
}
