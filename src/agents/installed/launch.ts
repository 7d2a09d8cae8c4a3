// What runs inside the sandbox for one turn of an installed agent: the node of the cached runtime
// starts a forwarder (127.0.0.1:18080 → the gateway's unix socket, the sandbox's only way out), then
// the CLI as its child, and exits with the CLI's exit code. One process: no readiness race.
import { killByMarkerScript } from '../../sandbox/index.ts';
import { MOUNT } from './confine.ts';

const FORWARD_PORT = 18080;
export const IN_SANDBOX_BASE_URL = `http://127.0.0.1:${FORWARD_PORT}`;
const NODE_BIN = `${MOUNT.node}/bin/node`;
export const AGENT_PATH = `${MOUNT.node}/bin:${MOUNT.agent}/node_modules/.bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`;
/** Stamped on the launcher; its descendants inherit it, so a kill finds them all. */
export const RUN_MARKER = 'BENCHRIG_AGENT_RUN';

const LAUNCHER = `
const net = require('net'), { spawn } = require('child_process'), os = require('os');
const [sock, ...argv] = process.argv.slice(1);
const srv = net.createServer((c) => {
  const u = net.connect(sock);
  c.pipe(u).pipe(c);
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
});
srv.on('error', (e) => { console.error('benchrig forwarder: ' + e.message); process.exit(125); });
srv.listen(${FORWARD_PORT}, '127.0.0.1', () => {
  process.umask(0); // files the agent makes stay readable and writable for grading
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('error', (e) => { console.error('benchrig: cannot start ' + argv[0] + ': ' + e.message); process.exit(127); });
  child.on('exit', (code, sig) => process.exit(code ?? 128 + (os.constants.signals[sig] || 9)));
});`;

/** argv of one turn: the launcher, the socket to forward to, then the CLI's own argv. */
export const launchArgv = (socketName: string, cli: string[]): string[] => [
  NODE_BIN,
  '-e',
  LAUNCHER,
  `${MOUNT.gateway}/${socketName}`,
  ...cli,
];

/** Kills every process carrying the run's marker (and its group); run through the toolbox's shell with the marker as $1. */
export const KILL_AGENT_SCRIPT = killByMarkerScript(RUN_MARKER);

/** Before the first turn, as root: the agent's user (qwen-code needs a passwd entry), its home, the workdir writable. */
export const setupScript = (home: string, workdir: string, unprivileged: boolean): string =>
  unprivileged
    ? `grep -q '^benchrig-agent:' /etc/passwd || echo 'benchrig-agent:x:1000:1000:benchrig agent:${home}:/bin/sh' >> /etc/passwd
grep -q '^benchrig-agent:' /etc/group || echo 'benchrig-agent:x:1000:' >> /etc/group
mkdir -p '${home}' && chmod 777 '${home}'
chmod -R a+rwX '${workdir}' 2>/dev/null; exit 0`
    : `mkdir -p '${home}'`;

export const GLIBC_LOADER = '/lib64/ld-linux-x86-64.so.2';
