/**
 * The shared sandbox's store on PostgreSQL (`--database-url`): every workspace's data source, switches,
 * armed faults and fired events, in a schema the sandbox creates and migrates itself. Every statement the
 * sandbox runs on PostgreSQL is in this file and in `postgres/`, one concern a file: the connection and its
 * bounds (`connection.ts`), the schema and its migrations (`schema.ts`), the notifications between replicas
 * (`notifications.ts`), one creation of a workspace (`workspace-store.ts`, over `creation.ts`), its fired events
 * (`fired-events.ts`) and its faults (`faults.ts`). Each acknowledged write is one committed transaction (the
 * answer follows the commit, PostgreSQL's default `synchronous_commit`); every change that other replicas
 * must follow is announced with `NOTIFY` in the transaction that makes it, so it reaches them on commit.
 */
import pg from "pg";
import type { DataSource } from "../model.ts";
import type { SandboxSwitches } from "../switches.ts";
import { connectionOptions, DatabaseError, reaching, redactedUrl, transaction } from "./postgres/connection.ts";
import { FireWriter } from "./postgres/fired-events.ts";
import { notify, ReplicaListener } from "./postgres/notifications.ts";
import { migrate } from "./postgres/schema.ts";
import { PostgresWorkspaceStore } from "./postgres/workspace-store.ts";
import type { SandboxStore, WorkspaceChange, WorkspacePage, WorkspaceRow } from "./store.ts";

// The URL as messages show it, for the caller that opens the store (`sandbox.ts` loads this file alone, on demand).
export { redactedUrl } from "./postgres/connection.ts";

/** The store on PostgreSQL, shared by replicas: a pool for requests and one connection that listens for other replicas' changes. */
export class PostgresStore implements SandboxStore {
  readonly #pool: pg.Pool;
  readonly #listener: ReplicaListener;
  /** Writes the fires of every workspace, with group commit. */
  readonly #fires: FireWriter;

  private constructor(url: string, pool: pg.Pool) {
    this.#pool = pool;
    this.#listener = new ReplicaListener(url);
    this.#fires = new FireWriter(pool);
  }

  /**
   * Connects, creates or migrates the schema (one replica at a time, under an advisory lock), and refuses
   * a database whose schema is newer than this sandbox's, in one line.
   */
  static async open(url: string, connections = 16): Promise<PostgresStore> {
    const pool = new pg.Pool({ ...connectionOptions(url), max: connections });
    // An idle connection the server ends (a restart) is dropped from the pool; the next query opens another.
    pool.on("error", () => undefined);
    const store = new PostgresStore(url, pool);
    try {
      await migrate(pool, url);
    } catch (error) {
      await pool.end();
      if (error instanceof DatabaseError) throw error;
      throw new DatabaseError(`--database-url ${redactedUrl(url)}: ${(error as Error).message}`);
    }
    return store;
  }

  /**
   * Listens for the changes every replica announces, calling `onChange` for each; `onReconnect` is called
   * when the listening connection was lost and is back (changes may have been missed meanwhile), and
   * `onDisconnect` once when it is lost.
   */
  listen(onChange: (change: WorkspaceChange) => void, onReconnect: () => void, onDisconnect?: () => void): Promise<void> {
    return this.#listener.listen(onChange, onReconnect, onDisconnect);
  }

  /** Whether the database answers now and this replica hears other replicas' changes (readiness). */
  async ready(): Promise<boolean> {
    if (!this.#listener.listening) return false;
    try {
      await this.#pool.query("SELECT 1");
      return true;
    } catch {
      return false;
    }
  }

  /** The pool's connections now: open, idle, and requests waiting for one. */
  poolStatistics(): { total: number; idle: number; waiting: number } {
    return { total: this.#pool.totalCount, idle: this.#pool.idleCount, waiting: this.#pool.waitingCount };
  }

  /** The time of one round trip (`SELECT 1` on a pooled connection) in seconds, or `undefined` when the database does not answer. */
  async roundTrip(): Promise<number | undefined> {
    const started = performance.now();
    try {
      await this.#pool.query("SELECT 1");
      return (performance.now() - started) / 1000;
    } catch {
      return undefined;
    }
  }

  /** Creates a workspace unless one of that name exists; resolves to whether it was created. */
  async createWorkspace(name: string, source: DataSource, switches: Partial<SandboxSwitches>, tokenSha256: string | null): Promise<boolean> {
    const created = await transaction(this.#pool, async (client) => {
      const inserted = await client.query(
        "INSERT INTO sandbox_workspaces (name, token_sha256, source, switches) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING",
        [name, tokenSha256, JSON.stringify(source), JSON.stringify(switches)],
      );
      // Every replica learns the token's hash, so a wrong token is refused without asking the database.
      if (inserted.rowCount === 1 && tokenSha256 !== null) await notify(client, { workspace: name, change: "created", tokenSha256 });
      return inserted.rowCount === 1;
    });
    if (created && tokenSha256 !== null) await this.#listener.created(tokenSha256, name);
    return created;
  }

  /** At most `limit` workspaces, by name, after the name `after` (from the first without it), without their data; `next` names the last one when more follow. */
  async listWorkspaces(after: string | undefined, limit: number): Promise<WorkspacePage> {
    return reaching(async () => {
      // One row more than the page: whether another page follows, without counting them all.
      const rows = (
        await this.#pool.query<{ name: string; created_at: Date }>(
          "SELECT name, created_at FROM sandbox_workspaces WHERE $1::text IS NULL OR name > $1 ORDER BY name LIMIT $2",
          [after ?? null, limit + 1],
        )
      ).rows;
      const workspaces = rows.slice(0, limit).map((row) => ({ name: row.name, createdAt: row.created_at.toISOString() }));
      return rows.length > limit ? { workspaces, next: workspaces.at(-1)!.name } : { workspaces };
    });
  }

  /** Removes a workspace and everything it holds; resolves to whether there was one. */
  async deleteWorkspace(name: string): Promise<boolean> {
    return transaction(this.#pool, async (client) => {
      const deleted = await client.query("DELETE FROM sandbox_workspaces WHERE name = $1", [name]);
      if (deleted.rowCount === 1) await notify(client, { workspace: name, change: "deleted" });
      return deleted.rowCount === 1;
    }).then((deleted) => {
      this.#listener.forgetTokensOf(name);
      return deleted;
    });
  }

  /** A workspace by name, or `undefined`. */
  async workspace(name: string): Promise<WorkspaceRow | undefined> {
    return this.#workspaceWhere("name", name);
  }

  /** The workspace whose token has this SHA-256, or `undefined`. */
  async workspaceOfToken(tokenSha256: string): Promise<WorkspaceRow | undefined> {
    // A token of no workspace (the hashes are known while this replica hears the others) costs no round trip.
    if (this.#listener.knowsNoWorkspaceOf(tokenSha256) && !(await this.#listener.heardOf(tokenSha256))) return undefined;
    return this.#workspaceWhere("token_sha256", tokenSha256);
  }

  async #workspaceWhere(column: "name" | "token_sha256", value: string): Promise<WorkspaceRow | undefined> {
    return reaching(async () => {
      const row = (
        await this.#pool.query<{
          name: string;
          incarnation: string;
          source: DataSource;
          switches: Partial<SandboxSwitches>;
          generation: string;
          created_at: Date;
        }>(`SELECT name, incarnation, source, switches, generation, created_at FROM sandbox_workspaces WHERE ${column} = $1`, [value])
      ).rows[0];
      return (
        row && {
          name: row.name,
          incarnation: Number(row.incarnation),
          source: row.source,
          switches: row.switches,
          generation: Number(row.generation),
          createdAt: row.created_at.toISOString(),
        }
      );
    });
  }

  /** What one creation of a workspace keeps here: its fired events, faults, data source and switches, at the generation loaded. */
  workspaceStore(row: Pick<WorkspaceRow, "name" | "incarnation" | "generation">): PostgresWorkspaceStore {
    return new PostgresWorkspaceStore(this.#pool, this.#fires, row);
  }

  /** Closes the pool and the listening connection. */
  async close(): Promise<void> {
    await this.#listener.close();
    await this.#pool.end().catch(() => undefined);
  }
}
