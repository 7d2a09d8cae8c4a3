// A fleet host's TLS files (docs/fleet.md), at load: relative to the file that set them, found through
// the configuration's provenance; set by the environment or a flag, relative to the working directory.
import path from 'node:path';
import { statSync } from 'node:fs';
import { BenchrigError } from '../../errors.ts';
import type { KeySources } from '../definition.ts';

type Tls = { ca: string; cert: string; key: string };

/** `[[sandbox.hosts]]` with each host's TLS paths absolute; a file that is not there is refused naming its key. */
export function hostsWithTls(hosts: unknown[], at: KeySources): unknown[] {
  return hosts.map((h, i) => {
    const host = h as { tls?: Tls };
    return host.tls ? { ...host, tls: hostTls(host.tls, i, at) } : h;
  });
}

function hostTls(tls: Tls, i: number, at: KeySources): Tls {
  const file = (name: keyof Tls) => {
    const setBy = at.setBy('hosts', i, 'tls', name);
    // File layers are named as messages show them (relative to the working directory); the others are "environment X" / "flag --x".
    const base = /^(environment|flag) /.test(setBy) ? at.cwd : path.dirname(path.resolve(setBy));
    const abs = path.resolve(base, tls[name]);
    if (!statSync(abs, { throwIfNoEntry: false })?.isFile()) {
      throw new BenchrigError(
        'config',
        `${setBy}: key sandbox.hosts[${i}].tls.${name}: file "${tls[name]}" not found (looked at ${at.shown(abs)})`,
      );
    }
    return abs;
  };
  return { ca: file('ca'), cert: file('cert'), key: file('key') };
}
