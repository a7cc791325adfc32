/**
 * A recording's folder: checked before anything is written (a folder, not a file nor a symbolic link;
 * one that already holds a recording only with `--append`), held by one recorder at a time (a lock file
 * with the holder's pid; a lock whose process is gone is stale and taken over), and written file by file
 * atomically: each derived file is written aside in the same folder, synced, renamed over the old one,
 * and the folder synced, so a kill at any moment leaves the earlier complete file or the new one.
 */
import { closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { journalName } from "./journal.js";

/** The files derived from the journal, by name, in the order they are written. */
export const derivedFiles = ["report.json", "switches.json", "open-points.json", "fixture.json", "exchanges.har", "report.md"] as const;

/** The lock file of a folder a recorder holds: its text is the holder's pid. */
export const lockName = ".recorder.lock";

/** A scratch file of this process in the folder (removed once used, and by the next recorder if a kill left it). */
export const scratchPath = (folder: string, name: string): string => join(folder, `.${name}.${process.pid}.tmp`);

/** A refusal of the folder: exit 1, one line. */
export class FolderError extends Error {
  override name = "FolderError";
}

/** How the folder is to be used. */
export interface FolderUse {
  /** `--append`: a recording already there is continued. */
  readonly append?: boolean;
  /** `--rebuild`: the folder must hold a journal. */
  readonly rebuild?: boolean;
}

/** Checks `--out` (made when missing), takes its lock and removes the scratch files a killed recorder left; resolves to the release of the lock. */
export function holdFolder(folder: string, use: FolderUse = {}): { readonly hasJournal: boolean; release(): void } {
  let stat: ReturnType<typeof lstatSync> | undefined;
  try {
    stat = lstatSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new FolderError(`--out ${folder}: cannot read it (${(error as NodeJS.ErrnoException).code})`);
  }
  if (stat?.isSymbolicLink()) throw new FolderError(`--out ${folder}: is a symbolic link; give the folder itself (nothing is written through a link)`);
  if (stat && !stat.isDirectory()) throw new FolderError(`--out ${folder}: is a file; expected a folder for the recording`);
  if (!stat) mkdirSync(folder, { recursive: true });
  const release = lock(folder);
  try {
    const names = readdirSync(folder);
    const hasJournal = names.includes(journalName);
    const recording = [journalName, ...derivedFiles].filter((name) => names.includes(name));
    if (use.rebuild && !hasJournal) throw new FolderError(`--out ${folder}: holds no ${journalName} to rebuild from`);
    if (!use.rebuild && !use.append && recording.length > 0)
      throw new FolderError(`--out ${folder}: already holds a recording (${recording[0]}); pass --append to continue it, or give another folder`);
    for (const name of names) if (/^\..+\.\d+\.tmp$/.test(name)) rmSync(join(folder, name), { force: true });
    return { hasJournal, release };
  } catch (error) {
    release();
    throw error;
  }
}

/** Takes the folder's lock, or refuses while a live process holds it. */
function lock(folder: string): () => void {
  const path = join(folder, lockName);
  for (let attempt = 0; attempt < 2; attempt++) {
    let descriptor: number;
    try {
      descriptor = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(readFileSync(path, "utf8").trim());
      if (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && alive(holder))
        throw new FolderError(`--out ${folder}: another recorder (pid ${holder}) is using it (${lockName}); one recorder per folder`);
      // Stale: its process is gone (killed before it could remove the lock).
      rmSync(path, { force: true });
      continue;
    }
    writeSync(descriptor, `${process.pid}\n`);
    closeSync(descriptor);
    return () => rmSync(path, { force: true });
  }
  throw new FolderError(`--out ${folder}: its lock ${lockName} could not be taken`);
}

/** Whether a process of that pid exists (a signal 0 checks without sending). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Writes `path` atomically: `produce` writes a file aside in the same folder, which is synced and renamed over `path`. */
export async function replaceAtomically<T>(path: string, produce: (aside: string) => Promise<T>): Promise<T> {
  const aside = scratchPath(dirname(path), basename(path));
  try {
    const result = await produce(aside);
    const descriptor = openSync(aside, constants.O_RDONLY);
    try {
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    await rename(aside, path);
    return result;
  } catch (error) {
    await rm(aside, { force: true });
    throw error;
  }
}

/** Writes a text file atomically. */
export const replaceText = (path: string, text: string): Promise<void> => replaceAtomically(path, (aside) => writeFile(aside, text, { flag: "wx" }));

/** Syncs a folder, so the renames in it are on disk. */
export function syncFolder(folder: string): void {
  const descriptor = openSync(folder, constants.O_RDONLY);
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}
