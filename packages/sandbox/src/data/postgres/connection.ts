/**
 * How the sandbox talks to PostgreSQL: the bounds of every wait (our choices), the options every connection is
 * opened with, which errors mean the database cannot be reached (a 503 with `Retry-After`), one transaction on one
 * connection, and the URL as messages show it (never its password).
 */
import type pg from "pg";
import { StoreUnavailableError } from "../fired-events.ts";

/** Seconds a client is told to wait (`Retry-After`) when the database cannot be reached: our choice. */
export const databaseRetryAfterSeconds = 1;

/**
 * The longest the sandbox waits on PostgreSQL for one step, in milliseconds (our choice): a connection from
 * the pool (or a new one), and each statement (the server's `statement_timeout`, and the client's own
 * `query_timeout` for a server that does not answer at all). A database that stalls makes a request a 503
 * with `Retry-After` after at most about twice this (a connection, then a statement), never a request held
 * for the whole stall. TCP keep-alive finds a connection whose peer is gone.
 */
export const databaseWaitMs = 3_000;

/** The longest a statement that replaces a workspace's data may run (a fixture of up to 256 MiB), in milliseconds (our choice). */
const replaceDataWaitMs = 60_000;

/** A statement given `replaceDataWaitMs` rather than a request's bound (`query_timeout` per query, which pg's types do not list). */
export function longStatement(text: string, values: unknown[]): pg.QueryConfig {
  return { text, values, query_timeout: replaceDataWaitMs } as pg.QueryConfig;
}

/** Lets the statements of the transaction of `client` run for up to `replaceDataWaitMs` (its own `statement_timeout`), for bulk writes. */
export async function allowLongStatements(client: pg.PoolClient): Promise<void> {
  await client.query(`SET LOCAL statement_timeout = ${replaceDataWaitMs}`);
}

/** What every connection to PostgreSQL is opened with: the bounds above, and TCP keep-alive. */
export function connectionOptions(url: string): pg.ClientConfig {
  return {
    connectionString: url,
    connectionTimeoutMillis: databaseWaitMs,
    query_timeout: databaseWaitMs,
    statement_timeout: databaseWaitMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: 1_000,
  };
}

/** A `--database-url` that cannot be used: one line naming the database (never its password) and the problem. */
export class DatabaseError extends Error {
  override name = "DatabaseError";
}

/** The URL without its password, for messages. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    // libpq's form `?password=` too.
    if (parsed.searchParams.has("password")) parsed.searchParams.set("password", "***");
    return parsed.toString();
  } catch {
    return "(not a URL)";
  }
}

/**
 * Whether an error means the database cannot be reached now (a connection refused, ended or reset, a
 * server shutting down or out of connections) rather than a problem of the request.
 */
function isUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  // 57014: a statement ended by `statement_timeout`.
  if (typeof code === "string" && /^(08|57P|57014|53300)/.test(code)) return true;
  if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable|timeout exceeded when trying to connect|Query read timeout/i.test(
    String((error as Error).message),
  );
}

/** Runs a database call; an unreachable database becomes a `StoreUnavailableError` (a 503 with `Retry-After`). */
export async function reaching<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUnreachable(error))
      throw new StoreUnavailableError(`The sandbox's database cannot be reached now; try again in ${databaseRetryAfterSeconds} s.`, databaseRetryAfterSeconds);
    throw error;
  }
}

/** Runs `work` in one transaction on one connection of the pool: committed when it resolves, rolled back when it throws. */
export async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return reaching(async () => {
    const client = await pool.connect();
    let result: T;
    try {
      await client.query("BEGIN");
      result = await work(client);
      await client.query("COMMIT");
    } catch (error) {
      // A connection that timed out may still be busy with its statement: dropped rather than waited on again.
      const rolledBack =
        !isUnreachable(error) &&
        (await client.query("ROLLBACK").then(
          () => true,
          () => false,
        ));
      client.release(rolledBack ? undefined : (error as Error));
      throw error;
    }
    client.release();
    return result;
  });
}
