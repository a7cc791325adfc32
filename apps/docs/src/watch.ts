import { type FSWatcher, watch } from "node:fs";
import { basename, dirname } from "node:path";

/**
 * Calls `onChange` on every change of one file, however it is saved. It watches the file's folder,
 * not the file: an editor that saves by writing a new file and renaming it over the old one leaves a
 * watcher of the file itself watching nothing after the first save.
 */
export function watchFile(path: string, onChange: () => void): FSWatcher {
  return watch(dirname(path), (_event, file) => {
    if (file === basename(path)) onChange();
  });
}
