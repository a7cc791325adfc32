/** The path of the Node.js 22 binary (the npm registry's `node` package, 22.x). */
export declare const node22: string;
