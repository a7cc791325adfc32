// The path of the Node.js 22 binary installed by this package's `node` dependency. Kept in a package
// of its own: a dependency on `node` links a `node` command into the dependant's `node_modules/.bin`,
// which would put every script of that package on Node 22.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export const node22 = join(dirname(createRequire(import.meta.url).resolve("node/package.json")), "bin", "node");
