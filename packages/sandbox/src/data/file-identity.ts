/**
 * Whether a `--data` path still names the file the sandbox opened. SQLite keeps writing through the file it
 * opened: once the path is removed, or another file is renamed over it, every commit lands in a file no
 * path names any more, gone at the next start. A write is therefore acknowledged only while the path names
 * the same file (device and inode, one `lstat`: about a microsecond per commit).
 */
import { lstatSync } from "node:fs";
import { NotKeptError } from "./fired-events.ts";

/** The file a path names, by device and inode, or `undefined` when it names none. */
function identityOf(path: string): string | undefined {
  try {
    const stats = lstatSync(path, { bigint: true });
    return `${stats.dev}:${stats.ino}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** A `--data` file that is no longer where it was opened: what was written since is refused, never acknowledged. */
export class DataFileGoneError extends NotKeptError {
  override name = "DataFileGoneError";
}

/** The file a path named when it was watched (right after it was opened), to ask later whether the path still names it. */
export class WatchedFile {
  readonly path: string;
  readonly #opened: string | undefined;

  constructor(path: string) {
    this.path = path;
    this.#opened = identityOf(path);
  }

  /** Whether the path names the file it named when watched (`false` when it named none). */
  get named(): boolean {
    return this.#opened !== undefined && identityOf(this.path) === this.#opened;
  }

  /** Throws a `DataFileGoneError` naming the path when it was removed or now names another file. */
  check(): void {
    const now = identityOf(this.path);
    if (now === this.#opened) return;
    throw new DataFileGoneError(
      `--data ${this.path} was ${now === undefined ? "removed" : "replaced (another file was put at its path)"} while the sandbox ran; nothing more is kept in the file it opened: restart the sandbox`,
    );
  }
}
