import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** The inbox builds to `dist/` with relative asset addresses, so any static server can serve it from any path. */
export default defineConfig({
  base: "./",
  plugins: [react()],
});
