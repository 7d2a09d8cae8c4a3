#!/usr/bin/env node
// benchrig runs as plain JavaScript: its TypeScript sources are compiled (esbuild) into modules
// cached by content, on first use and after any change to them. No build step to forget, and no
// TypeScript loader in any thread (src/loader/compile.mjs says why).
// The heap's flags first (heap.mjs says why), then the rest.
import './heap.mjs';
import { compiledUrl } from '../src/loader/compile.mjs';

const { main } = await import(await compiledUrl(new URL('../src/cli/main.ts', import.meta.url)));
await main(process.argv);
