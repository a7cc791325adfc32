/**
 * What one creation of a workspace keeps in PostgreSQL: its fired events, its armed faults, its data source and
 * switches, each statement bound to that creation. It knows the generation of the data in place, so a fire is kept
 * only against it.
 */
import type pg from "pg";
import type { DataSource } from "../../model.ts";
import type { SandboxSwitches } from "../../switches.ts";
import { WorkspaceGoneError, type WorkspaceIdentity, type WorkspaceRow, type WorkspaceStore } from "../store.ts";
import { allowLongStatements, longStatement, transaction } from "./connection.ts";
import { PostgresFaults } from "./faults.ts";
import { deleteFiredEvents, type FireWriter, PostgresFiredEvents } from "./fired-events.ts";
import { notify } from "./notifications.ts";

/** One creation of a workspace in PostgreSQL, at the generation of the data this replica has in place. */
export class PostgresWorkspaceStore implements WorkspaceStore {
  readonly #pool: pg.Pool;
  readonly #workspace: WorkspaceIdentity;
  readonly incarnation: number;
  /** The generation of the data in place in this replica. */
  generation: number;
  readonly fired: PostgresFiredEvents;
  readonly faults: PostgresFaults;

  /** Over the store's pool, its fires written by the store's one `writer` (group commit across workspaces). */
  constructor(pool: pg.Pool, writer: FireWriter, row: Pick<WorkspaceRow, "name" | "incarnation" | "generation">) {
    this.#pool = pool;
    this.#workspace = { name: row.name, incarnation: row.incarnation };
    this.incarnation = row.incarnation;
    this.generation = row.generation;
    this.fired = new PostgresFiredEvents(pool, writer, this.#workspace, () => this.generation);
    this.faults = new PostgresFaults(pool, this.#workspace);
  }

  async replaced(source: DataSource, swap: () => void): Promise<void> {
    const generation = await this.#replaceData(source);
    this.adopted(generation, swap);
  }

  adopted(generation: number, swap: () => void): void {
    if (generation <= this.generation) return;
    this.generation = generation;
    swap();
  }

  faultsChanged(): void {
    this.faults.changed();
  }

  /** Replaces the switches of this creation of the workspace, announced to every replica; refused when it was removed. */
  async setSwitches(switches: Partial<SandboxSwitches>): Promise<void> {
    const workspace = this.#workspace;
    await transaction(this.#pool, async (client) => {
      const updated = await client.query("UPDATE sandbox_workspaces SET switches = $3 WHERE name = $1 AND incarnation = $2", [
        workspace.name,
        workspace.incarnation,
        JSON.stringify(switches),
      ]);
      if (updated.rowCount !== 1) throw new WorkspaceGoneError(workspace);
      await notify(client, { workspace: workspace.name, change: "switches" });
    });
  }

  /** Replaces the workspace's data: the new source and no fired event, committed together; resolves to the new generation. Refused when that creation was removed. */
  async #replaceData(source: DataSource): Promise<number> {
    const workspace = this.#workspace;
    const { name } = workspace;
    return transaction(this.#pool, async (client) => {
      // A large fixture may take longer than a request's bound to write: this transaction's own.
      await allowLongStatements(client);
      const row = (
        await client.query<{ generation: string }>(
          longStatement("UPDATE sandbox_workspaces SET source = $3, generation = generation + 1 WHERE name = $1 AND incarnation = $2 RETURNING generation", [
            name,
            workspace.incarnation,
            JSON.stringify(source),
          ]),
        )
      ).rows[0];
      if (!row) throw new WorkspaceGoneError(workspace);
      await deleteFiredEvents(client, name);
      await notify(client, { workspace: name, change: "data" });
      return Number(row.generation);
    });
  }
}
