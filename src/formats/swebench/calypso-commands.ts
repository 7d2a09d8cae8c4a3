// Calypso's official test commands, which swebench 4.1.0 (the last release with a test-command table)
// made per instance by code instead of the table (docs/swebench.md#eval-scripts): one per file of the
// test patch, by its package and the row's version.
import { patchPaths } from './patch-files.ts';
import { DOT } from './pystr.ts';

const JEST_CONFIG_JS = ['10.10.0', '10.12.0', '10.13.0', '10.14.0', '10.15.2', '10.16.3'];
const JEST_CONFIG_JSON = [
  '6.11.5',
  '8.9.1',
  '8.9.3',
  '8.9.4',
  '8.11.0',
  '8.11.2',
  '10.4.1',
  '10.5.0',
  '10.6.0',
  '10.9.0',
];
/** A jest snapshot is run by the folder above its `__snapshots__`. */
const SNAPSHOT = new RegExp(`__snapshots__/${DOT}*${DOT}js${DOT}snap$`, 'u');

function commandsFor(file: string, version: string | undefined): string[] {
  const path = SNAPSHOT.test(file) ? file.split('/').slice(0, -2).join('/') : file;
  if (path.startsWith('client') || path.startsWith('packages')) {
    const pkg = path.split('/')[0] ?? '';
    const v = version ?? '';
    if (JEST_CONFIG_JS.includes(v))
      return [`./node_modules/.bin/jest --verbose -c=test/${pkg}/jest.config.js '${path}'`];
    if (JEST_CONFIG_JSON.includes(v))
      return [`./node_modules/.bin/jest --verbose -c=test/${pkg}/jest.config.json '${path}'`];
    return [`npm run test-${pkg} --verbose '${path}'`];
  }
  if (path.startsWith('test/e2e')) return ['cd test/e2e', `NODE_CONFIG_ENV=test npm run test ${path}`, 'cd ../..'];
  return [];
}

/** The test run of a Calypso row without an eval_script. */
export const calypsoTestCommands = (testPatch: string, version: string | undefined): string[] =>
  patchPaths(testPatch).flatMap((file) => commandsFor(file, version));
