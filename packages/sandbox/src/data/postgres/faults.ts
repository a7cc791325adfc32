/**
 * A workspace's armed faults in PostgreSQL, seen by every replica: each change announced to the others, and the
 * operations they target read ahead, so that most requests (which meet no armed fault) ask nothing of the database.
 */
import type pg from "pg";
import { armedFault, type Fault, type FaultRequest, type FaultStore, noFault, type OperationId } from "../faults.ts";
import type { WorkspaceIdentity } from "../store.ts";
import { reaching, transaction } from "./connection.ts";
import { holdCreation } from "./creation.ts";
import { notify } from "./notifications.ts";

/** A workspace's armed faults in PostgreSQL, seen by every replica. */
export class PostgresFaults implements FaultStore {
  readonly #pool: pg.Pool;
  readonly #workspace: WorkspaceIdentity;
  /** The operations the workspace's armed faults target, as last read: a request takes a fault from the database only when one may match. */
  #targets: (OperationId | null)[] | undefined;
  /** The read of the targets under way, if any. */
  #reading: Promise<(OperationId | null)[]> | undefined;
  /** How many times the faults changed: a read started before the last change is not kept. */
  #changes = 0;

  constructor(pool: pg.Pool, workspace: WorkspaceIdentity) {
    this.#pool = pool;
    this.#workspace = workspace;
    this.changed();
  }

  async add(fault: FaultRequest): Promise<Fault> {
    const armed = armedFault(fault);
    await this.#insert(armed);
    this.changed();
    return { ...armed };
  }

  take(operationId: OperationId): Promise<Fault | undefined> {
    const targets = this.#targets;
    const mayMatch = (list: readonly (OperationId | null)[]) => list.some((target) => target === null || target === operationId);
    // Most requests meet no armed fault: they ask nothing of the database.
    if (targets !== undefined && !mayMatch(targets)) return noFault;
    return (async () => {
      if (targets === undefined && !mayMatch(await this.#readTargets())) return undefined;
      const fault = await this.#takeOne(operationId);
      if (fault === undefined || fault.times === 0) this.changed();
      return fault;
    })();
  }

  /** Disarms every fault of the workspace, announced to every replica (refused when that creation was removed). */
  async clear(): Promise<void> {
    const { name } = this.#workspace;
    await transaction(this.#pool, async (client) => {
      await holdCreation(client, this.#workspace);
      await client.query("DELETE FROM sandbox_faults WHERE workspace = $1", [name]);
      await notify(client, { workspace: name, change: "faults" });
    });
    this.changed();
  }

  /**
   * The armed faults changed (here or on another replica): read again now, ahead of the requests, so a request
   * waits on the database only when it comes while they are read (and a request that is refused anyway, such as
   * an invalid fire, seldom does).
   */
  changed(): void {
    this.#targets = undefined;
    this.#changes++;
    this.#readTargets().catch(() => undefined);
  }

  /** Arms a fault in the workspace, announced to every replica (refused when that creation was removed). */
  async #insert(fault: Fault): Promise<void> {
    const { name } = this.#workspace;
    await transaction(this.#pool, async (client) => {
      await holdCreation(client, this.#workspace);
      const { times, ...rest } = fault;
      await client.query("INSERT INTO sandbox_faults (workspace, operation_id, fault, times) VALUES ($1, $2, $3, $4)", [
        name,
        fault.operationId ?? null,
        JSON.stringify(rest),
        times,
      ]);
      await notify(client, { workspace: name, change: "faults" });
    });
  }

  /** Takes one use of the first armed fault of the workspace that matches the operation (one replica at a time), or `undefined`. */
  async #takeOne(operationId: OperationId): Promise<Fault | undefined> {
    const { name } = this.#workspace;
    return transaction(this.#pool, async (client) => {
      await holdCreation(client, this.#workspace);
      const row = (
        await client.query<{ id: string; fault: Omit<Fault, "times">; times: number }>(
          "SELECT id, fault, times FROM sandbox_faults WHERE workspace = $1 AND (operation_id IS NULL OR operation_id = $2) ORDER BY id LIMIT 1 FOR UPDATE",
          [name, operationId],
        )
      ).rows[0];
      if (!row) return undefined;
      if (row.times > 1) {
        await client.query("UPDATE sandbox_faults SET times = times - 1 WHERE id = $1", [row.id]);
      } else {
        await client.query("DELETE FROM sandbox_faults WHERE id = $1", [row.id]);
        await notify(client, { workspace: name, change: "faults" });
      }
      return { ...row.fault, times: row.times - 1 };
    });
  }

  /** The targets of the armed faults, read once for every request that asks meanwhile. */
  #readTargets(): Promise<(OperationId | null)[]> {
    const changes = this.#changes;
    this.#reading ??= this.#targetsOfArmed().finally(() => (this.#reading = undefined));
    return this.#reading.then((read) => {
      // Kept unless the faults changed again while they were read.
      if (changes === this.#changes) this.#targets = read;
      return read;
    });
  }

  /** The operations the armed faults of this creation of the workspace target (`null`: every operation), oldest first. */
  async #targetsOfArmed(): Promise<(OperationId | null)[]> {
    return reaching(async () =>
      (
        await this.#pool.query<{ operation_id: OperationId | null }>(
          "SELECT f.operation_id FROM sandbox_faults f JOIN sandbox_workspaces w ON w.name = f.workspace AND w.incarnation = $2 WHERE f.workspace = $1 ORDER BY f.id",
          [this.#workspace.name, this.#workspace.incarnation],
        )
      ).rows.map((row) => row.operation_id),
    );
  }
}
