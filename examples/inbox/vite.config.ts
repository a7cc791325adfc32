import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/** MSW's service worker script, from the installed msw (so it always matches its version). */
const workerScript = () => readFileSync(fileURLToPath(import.meta.resolve("msw/mockServiceWorker.js")), "utf8");

/** Serves `mockServiceWorker.js` beside the app (dev) and writes it into `dist/` (build), for the in-page sandbox. */
const mswWorker = (): Plugin => ({
  name: "msw-worker",
  configureServer(server) {
    server.middlewares.use("/mockServiceWorker.js", (_request, response) => {
      response.setHeader("Content-Type", "text/javascript");
      response.end(workerScript());
    });
  },
  generateBundle() {
    this.emitFile({ type: "asset", fileName: "mockServiceWorker.js", source: workerScript() });
  },
});

/** The inbox builds to `dist/` with relative asset addresses, so any static server can serve it from any path. */
export default defineConfig({
  base: "./",
  plugins: [react(), mswWorker()],
  // The in-page sandbox's module awaits at the top level (its data loads before the first render).
  build: { target: "es2022" },
});
