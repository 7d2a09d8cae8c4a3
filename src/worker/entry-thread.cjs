// The module piscina loads in each thread. Piscina require()s its task module before it tries
// import(), and on Node >= 20.19 a require() of an ES module graph can abort the whole process
// (a V8 fatal error, "IsGraphAsync must be used on an instantiated module", seen in CI with the
// compiled entry). This CommonJS module hands piscina the compiled entry's task function as a
// promise, which piscina awaits: no ES module is ever require()d, and the thread is ready only once
// the entry (entry-thread.ts, compiled; its URL comes with workerData) has loaded.
'use strict';
const { workerData } = require('node:worker_threads');

exports.__esModule = true; // piscina then reads `default` as it is, rather than wrapping the exports
exports.default = import(workerData.entry).then((m) => m.default);
