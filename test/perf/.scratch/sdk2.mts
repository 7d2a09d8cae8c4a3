import { startModelServer } from '/work/main/test/support/model-server.ts';
import OpenAI from 'openai';
import { fork } from 'node:child_process';
import http from 'node:http';
if (process.argv[2] === 'server') {
  const m = await startModelServer(() => ({ content: 'pong' }));
  process.send!(m.url);
} else {
  const child = fork(process.argv[1], ['server'], { execArgv: ['--import', 'tsx'] });
  const url: string = await new Promise((r) => child.once('message', r as any));
  const agent = new http.Agent({ keepAlive: true });
  const myFetch = (input: any, init: any = {}) => new Promise<Response>((resolve, reject) => {
    const req = http.request(String(input), { method: init.method, headers: init.headers, agent, signal: init.signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
        resolve(new Response(Buffer.concat(chunks), { status: res.statusCode, statusText: res.statusMessage, headers: h }));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
  for (const [name, f] of [['custom', myFetch], ['default', undefined]] as const) {
    const sdk = new OpenAI({ baseURL: url, apiKey: 'x', maxRetries: 0, fetch: f as any });
    for (let i = 0; i < 200; i++) await sdk.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    let u = process.cpuUsage(); const t = performance.now();
    for (let i = 0; i < 1000; i++) await sdk.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    u = process.cpuUsage(u);
    console.log(name, 'cpu ms/call', ((u.user + u.system) / 1e6).toFixed(3), 'wall', ((performance.now() - t) / 1000).toFixed(3));
  }
  child.kill();
}
