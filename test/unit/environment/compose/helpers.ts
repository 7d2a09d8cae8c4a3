// Compose task folders for the tests: a copy of test/fixtures/harbor-compose-refused with one compose
// file as its environment/docker-compose.yaml, loaded through the Harbor loader (as `validate` does).
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { harborSample } from '../../../../src/formats/harbor/samples.ts';
import { readHarborTask } from '../../../../src/formats/harbor/task.ts';
import { BenchrigError } from '../../../../src/errors.ts';
import type { EnvironmentSpec } from '../../../../src/environment/spec.ts';
import { FIXTURES, tempDir } from '../../../support/cli.ts';

export const REFUSED = path.join(FIXTURES, 'harbor-compose-refused');
export const FULL = path.join(FIXTURES, 'harbor-compose', 'full');

/** A task folder (named `task`) whose compose file is `yaml`, or the fixture file `compose/<name>.yaml`. */
export function composeTask(yaml: string | { fixture: string }, taskToml?: string): string {
  const dir = path.join(tempDir('benchrig-compose-'), 'task');
  cpSync(REFUSED, dir, { recursive: true, verbatimSymlinks: true });
  const text =
    typeof yaml === 'string' ? yaml : readFileSync(path.join(REFUSED, 'compose', `${yaml.fixture}.yaml`), 'utf8');
  writeFileSync(path.join(dir, 'environment', 'docker-compose.yaml'), text);
  if (taskToml !== undefined) writeFileSync(path.join(dir, 'task.toml'), taskToml);
  return dir;
}

/** The task's environment, paths relative to the task's parent folder, and validate's notes. */
export function load(dir: string): { spec: EnvironmentSpec; notes: string[] } {
  const notes: string[] = [];
  const sample = harborSample(readHarborTask(dir), path.dirname(dir), notes);
  if (!sample.environment) throw new Error('no environment');
  return { spec: sample.environment, notes };
}

/** The load error's message, or a failure when the task loads. */
export function refusal(dir: string): string {
  try {
    load(dir);
  } catch (err) {
    if (err instanceof BenchrigError && err.kind === 'benchmark') return err.message;
    throw err;
  }
  throw new Error('the task loaded');
}
