// Types of compile.mjs (plain JavaScript: it is what loads benchrig's TypeScript).
export declare const isTypeScript: (path: string) => boolean;
export declare class CompileError extends Error {
  readonly entry: string;
  constructor(message: string, entry: string);
}
export declare function cacheDir(): string;
/** `use` with esbuild's API; its service is stopped once no use in this thread is left (compile.mjs). */
export declare function withEsbuild<T>(use: (esbuild: typeof import('esbuild')) => Promise<T>): Promise<T>;
export declare function compiledUrl(entry: string | URL, opts?: { sourcemap?: boolean }): Promise<string>;
