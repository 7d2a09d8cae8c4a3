// Compose tasks through the CLI (docs/benchmarks.md#compose-tasks): `validate` checks one and lists
// what it ignores; a refused key is exit 2 with one line naming the task, file, service and key;
// `run` starts them (test/e2e/compose-run.test.ts).
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../support/cli.ts';

describe('compose tasks from the command line', () => {
  it('validate: ok, with a note for each ignored key', async () => {
    const dir = join(tempDir(), 'tasks');
    cpSync(join(FIXTURES, 'harbor-compose'), dir, { recursive: true });
    const file = join(dir, 'full/environment/docker-compose.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('\n  db:\n', '\n  db:\n    ports: ["8080:8080"]\n'));
    const v = await runCli(['validate', dir]);
    expect(v.stderr).toBe('');
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^ok: tasks — 1 sample,/);
    expect(v.stdout).toContain(
      'note: ignored key full/environment/docker-compose.yaml: services.db.ports (not published: nothing outside the trial needs them; services reach each other by name)',
    );
  });

  it('validate: a namespace shared with another service (pid, ipc, uts: service:<name>; cgroup) is a note: not applied', async () => {
    const dir = join(tempDir(), 'tasks');
    cpSync(join(FIXTURES, 'harbor-compose'), dir, { recursive: true });
    const file = join(dir, 'full/environment/docker-compose.yaml');
    const shared = '    pid: "service:db"\n    ipc: "service:db"\n    uts: "service:db"\n    cgroup: private\n';
    writeFileSync(file, readFileSync(file, 'utf8').replace('\n  web:\n', `\n  web:\n${shared}`));
    const v = await runCli(['validate', dir]);
    expect(v.stderr).toBe('');
    expect(v.code).toBe(0);
    const notes = v.stdout.split('\n').filter((l) => l.startsWith('note:'));
    const why = (k: string, value: string) =>
      `note: ignored key full/environment/docker-compose.yaml: services.web.${k} (${value} not applied: every service has its own ${k} namespace, as Docker makes it)`;
    expect(notes).toEqual([
      why('pid', '"service:db"'),
      why('ipc', '"service:db"'),
      why('uts', '"service:db"'),
      why('cgroup', '"private"'),
    ]);
  });

  it('validate: a privileged service is exit 2, one line naming the task, file, service and key', async () => {
    const dir = join(tempDir(), 'task');
    cpSync(join(FIXTURES, 'harbor-compose-refused'), dir, { recursive: true, verbatimSymlinks: true });
    cpSync(join(dir, 'compose/privileged.yaml'), join(dir, 'environment/docker-compose.yaml'));
    const v = await runCli(['validate', dir]);
    expect(v.code).toBe(2);
    expect(v.stderr.trim().split('\n')).toHaveLength(1);
    expect(v.stderr).toContain(
      `task "task" (${dir}/environment/docker-compose.yaml): key services.side.privileged: privileged containers are not allowed`,
    );
    expect(v.stderr).not.toMatch(/\n\s+at /);
  });
});
