// The size-limit plugins ship no type declarations: each is a plugin for size-limit's API, typed as
// that API's plugin parameter.
declare module "@size-limit/esbuild" {
  const plugin: Parameters<typeof import("size-limit").default>[0][number];
  export default plugin;
}

declare module "@size-limit/file" {
  const plugin: Parameters<typeof import("size-limit").default>[0][number];
  export default plugin;
}
