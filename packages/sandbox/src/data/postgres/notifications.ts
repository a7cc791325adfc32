/**
 * Change notifications between replicas: every change other replicas must follow is announced with `NOTIFY` in the
 * transaction that makes it (so it reaches them on commit, never on a rollback), and each replica listens on one
 * connection of its own, opened again when lost. What a replica hears also tells it every workspace's token hash, so
 * a wrong token is refused without a round trip.
 */
import pg from "pg";
import type { WorkspaceChange } from "../store.ts";
import { connectionOptions } from "./connection.ts";

/** The channel of `LISTEN` / `NOTIFY` on which replicas hear each other's changes. */
const channel = "bot_conversation_sandbox";

/** How long a token this replica knows of no workspace waits for a creation's notification before its 401, in milliseconds (our choice). */
const unknownTokenWaitMs = 100;

/** A workspace created, as `NOTIFY` carries it to every replica: its token's hash (never the token), so each knows the tokens of every workspace. */
interface WorkspaceCreated {
  readonly workspace: string;
  readonly change: "created";
  readonly tokenSha256: string;
}

/** Announces a change to every replica: delivered when the transaction commits, never if it rolls back. */
export async function notify(client: pg.PoolClient, change: WorkspaceChange | WorkspaceCreated): Promise<void> {
  await client.query("SELECT pg_notify($1, $2)", [channel, JSON.stringify({ ...change, announcedAt: Date.now() })]);
}

/** One replica's ear: the listening connection, and the token hashes of every workspace while it hears the others. */
export class ReplicaListener {
  readonly #url: string;
  #client: pg.Client | undefined;
  #closed = false;
  #listening = false;
  /** The SHA-256 of every workspace's token, with its name, while this replica hears the others (`undefined` otherwise). */
  #tokens: Map<string, string> | undefined;
  /** Creations this replica made and waits to hear announced, by token hash. */
  readonly #heard = new Map<string, () => void>();

  constructor(url: string) {
    this.#url = url;
  }

  /** Whether this replica hears other replicas' changes now. */
  get listening(): boolean {
    return this.#listening;
  }

  /**
   * Listens for the changes every replica announces, calling `onChange` for each; `onReconnect` is called
   * when the listening connection was lost and is back (changes may have been missed meanwhile), and
   * `onDisconnect` once when it is lost.
   */
  async listen(onChange: (change: WorkspaceChange) => void, onReconnect: () => void, onDisconnect: () => void = () => undefined): Promise<void> {
    let connected = false;
    let wait = 50;
    /** Opens the listening connection; once it was open, a loss (or a failed attempt) tries again after a wait that doubles up to 1 s. */
    const attempt = async (first: boolean): Promise<void> => {
      if (this.#closed) return;
      const client = new pg.Client(connectionOptions(this.#url));
      let lost = first;
      const onLost = () => {
        if (lost) return;
        lost = true;
        this.#listening = false;
        if (connected && !this.#closed) onDisconnect();
        connected = false;
        // Changes may be missed until the connection is back: every token is asked of the database meanwhile.
        this.#tokens = undefined;
        client.end().catch(() => undefined);
        if (this.#closed) return;
        // The database is restarting or gone: asked again, no more often than the wait.
        setTimeout(() => void attempt(false), wait).unref();
        wait = Math.min(wait * 2, 1_000);
      };
      client.on("error", onLost);
      client.on("end", onLost);
      client.on("notification", (message) => {
        if (message.channel !== channel || message.payload === undefined) return;
        const change = JSON.parse(message.payload) as WorkspaceChange | WorkspaceCreated;
        if (change.change === "created") {
          this.#tokens?.set(change.tokenSha256, change.workspace);
          this.#heard.get(change.tokenSha256)?.();
          return;
        }
        if (change.change === "deleted") this.forgetTokensOf(change.workspace);
        onChange(change);
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${channel}`);
        // Read once listening, so a workspace created meanwhile is in the rows or in a notification.
        this.#tokens = new Map();
        const rows = (
          await client.query<{ name: string; token_sha256: string }>("SELECT name, token_sha256 FROM sandbox_workspaces WHERE token_sha256 IS NOT NULL")
        ).rows;
        for (const row of rows) this.#tokens.set(row.token_sha256, row.name);
      } catch (error) {
        this.#tokens = undefined;
        client.end().catch(() => undefined);
        // The first attempt fails the start; a later one is tried again.
        if (first) throw error;
        return onLost();
      }
      if (this.#closed) {
        await client.end();
        return;
      }
      lost = false;
      connected = true;
      this.#client = client;
      this.#listening = true;
      wait = 50;
      if (!first) onReconnect();
    };
    await attempt(true);
  }

  /**
   * A workspace this replica created with a token: its hash is known here at once, and this resolves once this
   * replica heard its own announcement (at most a second): the others were told at the same commit, so the new
   * token is known everywhere by the time its creator can hand it on.
   */
  async created(tokenSha256: string, name: string): Promise<void> {
    this.#tokens?.set(tokenSha256, name);
    if (!this.#listening) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.#heard.set(tokenSha256, resolve);
      timer = setTimeout(resolve, 1_000);
    });
    clearTimeout(timer);
    this.#heard.delete(tokenSha256);
  }

  /** Whether this replica hears the others and knows of no workspace with this token hash (a token it need not ask the database of). */
  knowsNoWorkspaceOf(tokenSha256: string): boolean {
    return this.#tokens !== undefined && !this.#tokens.has(tokenSha256);
  }

  /**
   * Whether a token hash this replica knows of no workspace is heard of within `unknownTokenWaitMs`, asked again
   * each turn of the event loop: a creation's notification on its way (a workspace made on one replica and used on
   * another at once) is then known; a wrong token waits that long, and asks the database nothing.
   */
  async heardOf(tokenSha256: string): Promise<boolean> {
    const until = performance.now() + unknownTokenWaitMs;
    do await new Promise((resolve) => setImmediate(resolve));
    while (this.knowsNoWorkspaceOf(tokenSha256) && performance.now() < until);
    return !this.knowsNoWorkspaceOf(tokenSha256);
  }

  /** Drops the token hashes of a removed workspace from what this replica knows. */
  forgetTokensOf(name: string): void {
    if (this.#tokens) for (const [hash, owner] of this.#tokens) if (owner === name) this.#tokens.delete(hash);
  }

  /** Stops listening, for good. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#listening = false;
    await this.#client?.end().catch(() => undefined);
  }
}
