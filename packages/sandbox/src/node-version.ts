/** The oldest Node.js the sandbox and the command are tested and supported on (`engines`); older ones get one line, not a stack. */
export const minimumNode = [22, 16] as const;

/**
 * Exits with one line naming the Node.js version a command needs when this Node is older. It runs
 * before anything that needs a newer Node is loaded, so an old Node prints the line instead of a stack.
 */
export function requireNode(command: string, minimum: readonly [number, number] = minimumNode): void {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major > minimum[0] || (major === minimum[0] && minor >= minimum[1])) return;
  process.stderr.write(`${command} needs Node.js ${minimum.join(".")} or later; this is Node.js ${process.versions.node}.\n`);
  process.exit(1);
}
