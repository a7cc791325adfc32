/** The README's set-up of a shared sandbox's database (its SQL block), run on a real PostgreSQL as its superuser. */
import { readFileSync } from "node:fs";
import pg from "pg";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The README's SQL block, as the statements run before and after its `\connect`, and the role, password and database it makes. */
export function setUpStatements(): { database: string; role: string; password: string; before: string[]; after: string[] } {
  const block = /```sql\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf("## Running a shared sandbox")))?.[1];
  if (block === undefined) throw new Error("the README's shared sandbox has no SQL block");
  const [before, after] = block.split(/^\\connect (\w+)\n/m).filter((_, index) => index !== 1);
  const database = /^\\connect (\w+)$/m.exec(block)![1]!;
  const statements = (text: string | undefined) =>
    (text ?? "")
      .split(";\n")
      .map((statement) => statement.trim())
      .filter(Boolean);
  const [beforeStatements, afterStatements] = [statements(before), statements(after)];
  const password = /PASSWORD '([^']+)'/.exec(beforeStatements.join("\n"))![1]!;
  const role = /CREATE ROLE (\w+)/.exec(beforeStatements.join("\n"))![1]!;
  return { database, role, password, before: beforeStatements, after: afterStatements };
}

/** Runs statements one at a time (CREATE DATABASE may not run in a transaction) as the superuser of `serverUrl`, on a database. */
export async function runAsSuperuser(serverUrl: string, database: string, statements: readonly string[]): Promise<void> {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Runs the README's whole block on the server of `serverUrl` (its superuser's URL); resolves to the URL of the role it made, on its database. */
export async function setUpDatabase(serverUrl: string): Promise<string> {
  const { database, role, password, before, after } = setUpStatements();
  await runAsSuperuser(serverUrl, "postgres", before);
  await runAsSuperuser(serverUrl, database, after);
  const url = new URL(serverUrl);
  Object.assign(url, { username: role, password, pathname: `/${database}` });
  return url.toString();
}
