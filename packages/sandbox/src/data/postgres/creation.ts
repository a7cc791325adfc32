/** A creation of a workspace as the statements of its fired events and faults bind to it (`WorkspaceRow.incarnation`). */
import type pg from "pg";
import { WorkspaceGoneError, type WorkspaceIdentity } from "../store.ts";
import { reaching } from "./connection.ts";

/**
 * Holds the row of a creation of a workspace until the transaction ends (`FOR KEY SHARE`: its removal waits, its
 * other changes do not), or refuses with `WorkspaceGoneError` when it was removed.
 */
export async function holdCreation(client: pg.PoolClient, workspace: WorkspaceIdentity): Promise<void> {
  const held = await client.query("SELECT 1 FROM sandbox_workspaces WHERE name = $1 AND incarnation = $2 FOR KEY SHARE", [
    workspace.name,
    workspace.incarnation,
  ]);
  if (held.rowCount !== 1) throw new WorkspaceGoneError(workspace);
}

/** Whether a creation of a workspace is still there. */
export async function creationThere(pool: pg.Pool, workspace: WorkspaceIdentity): Promise<boolean> {
  return reaching(
    async () =>
      (await pool.query("SELECT 1 FROM sandbox_workspaces WHERE name = $1 AND incarnation = $2", [workspace.name, workspace.incarnation])).rowCount === 1,
  );
}
