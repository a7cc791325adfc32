/** Every package a user installs from npm, in dependency order: the description, then what is built on it. */
export const publicPackages = [
  "@bot-conversation/openapi",
  "@bot-conversation/types",
  "@bot-conversation/client",
  "@bot-conversation/query",
  "@bot-conversation/sandbox",
  "@bot-conversation/conformance",
  "@bot-conversation/cli",
] as const;
