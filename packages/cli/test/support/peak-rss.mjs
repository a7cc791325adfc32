// Preloaded into a child process (`node --import`): on exit, writes the process's peak resident set
// size in bytes (getrusage's ru_maxrss, the kernel's VmHWM) to the file named by PEAK_RSS_FILE.
import { writeFileSync } from "node:fs";

process.on("exit", () => writeFileSync(process.env.PEAK_RSS_FILE, String(process.resourceUsage().maxRSS * 1024)));
