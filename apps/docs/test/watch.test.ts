import { mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, test } from "vitest";
import { watchFile } from "../src/watch.ts";

test("the live preview's watcher sees every save of the template, also saves that rename a new file over it", async () => {
  const directory = await mkdtemp(join(tmpdir(), "docs-watch-"));
  const template = join(directory, "template.hbs");
  await writeFile(template, "first");
  let changes = 0;
  const watcher = watchFile(template, () => changes++);
  try {
    for (const [index, content] of ["second", "third", "fourth"].entries()) {
      const before = changes;
      // How editors save atomically: write a sibling, then rename it over the file.
      await writeFile(join(directory, `.template.hbs.${index}`), content);
      await rename(join(directory, `.template.hbs.${index}`), template);
      for (let waited = 0; changes === before && waited < 5_000; waited += 50) await sleep(50);
      expect(changes, `save ${index + 1}`).toBeGreaterThan(before);
    }
  } finally {
    watcher.close();
    await rm(directory, { recursive: true, force: true });
  }
});
