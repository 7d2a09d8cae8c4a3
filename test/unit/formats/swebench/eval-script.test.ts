import { describe, expect, it } from 'vitest';
import { evalScript } from '../../../../src/formats/swebench/eval-script.ts';
import { modifiedFiles, testDirectives } from '../../../../src/formats/swebench/patch-files.ts';
import { fixtureRows, fixtureText } from './helpers.ts';

const script = (...args: Parameters<typeof evalScript>): string => {
  const s = evalScript(...args);
  if (typeof s !== 'string') throw new Error(s.problem);
  return s;
};
const DJANGO_PATCH = fixtureText('patches/django-tests.diff');

describe('eval scripts', () => {
  it("runs the row's eval_script, with the test command's exit status echoed after the end marker", () => {
    const row = fixtureRows()[1] as { repo: string; base_commit: string; test_patch: string; eval_script: string };
    const s = script(row);
    expect(s.startsWith('#!/bin/bash\nset -uxo pipefail\ncd /testbed\n')).toBe(true);
    expect(s).toContain(
      'pytest -rA tests/test_w.py\nSWEBENCH_TEST_EXIT_CODE=$?\n: \'>>>>> End Test Output\'\necho ">>>>> Test Exit Code: $SWEBENCH_TEST_EXIT_CODE"\ngit checkout',
    );
    expect(s.match(/#!\/bin\/bash/g)).toHaveLength(1);
  });

  it('makes the official Python script from the test patch: reset the test files, apply, run the directives, reset', () => {
    const s = script({ repo: 'django/django', version: '3.0', base_commit: 'abc', test_patch: DJANGO_PATCH });
    const reset = 'git checkout abc tests/utils_tests/test_text.py tests/validators/invalid_urls.txt';
    // The version's own eval commands (locale) first; its install again before the reset, as the official script.
    expect(s).toContain("cd /testbed\nsed -i '/en_US.UTF-8/s/^# //g' /etc/locale.gen && locale-gen\n");
    expect(s).toContain(
      `conda activate testbed\npython -m pip install -e .\n${reset}\ngit apply -v - <<'EOF_114329324912'\n${DJANGO_PATCH}\nEOF_114329324912\n`,
    );
    // Django's directives are dotted modules; data files are left out.
    expect(s).toContain(
      ": '>>>>> Start Test Output'\n./tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1 utils_tests.test_text\nSWEBENCH_TEST_EXIT_CODE=$?\n",
    );
    expect(s.endsWith(`echo ">>>>> Test Exit Code: $SWEBENCH_TEST_EXIT_CODE"\n${reset}\n`)).toBe(true);
  });

  it('makes the common script for other languages (the test commands from the table)', () => {
    const s = script({ repo: 'gin-gonic/gin', version: '1805', base_commit: 'abc', test_patch: DJANGO_PATCH });
    expect(s).toContain("git apply --verbose --reject - <<'EOF_114329324912'");
    expect(s).toContain(
      ': \'>>>>> Start Test Output\'\ngo test -v . -run "^Test.*Router"\nSWEBENCH_TEST_EXIT_CODE=$?\n',
    );
  });

  it('[swebench] test_command replaces the test run of any script, and stands in for a missing official command', () => {
    const row = fixtureRows()[1] as { repo: string; base_commit: string; test_patch: string; eval_script: string };
    expect(script(row, 'make check')).toContain(
      ": '>>>>> Start Test Output'\nmake check\nSWEBENCH_TEST_EXIT_CODE=$?\n",
    );
    expect(script(row, 'make check')).not.toContain('pytest -rA');
    const own = script({ repo: 'me/mine', base_commit: 'abc', test_patch: DJANGO_PATCH }, 'npm test');
    expect(own).toContain(": '>>>>> Start Test Output'\nnpm test\n");
    expect(evalScript({ repo: 'me/mine', base_commit: 'abc', test_patch: '' })).toEqual({
      problem: `has no eval_script and benchrig knows no official test command for repository "me/mine": add the row's eval_script or set [swebench] test_command`,
    });
    expect(evalScript({ repo: 'django/django', version: '0.1', base_commit: 'abc', test_patch: '' })).toMatchObject({
      problem: expect.stringMatching(/django\/django version "0.1"/),
    });
  });

  it("makes Calypso's test run per test file, by package and version, as the official harness made it", () => {
    const patch = fixtureText('patches/calypso-tests.diff');
    const run = (version: string) => {
      const s = script({ repo: 'Automattic/wp-calypso', version, base_commit: 'abc', test_patch: patch });
      return s.slice(s.indexOf("Start Test Output'\n") + 19, s.indexOf('\nSWEBENCH_TEST_EXIT_CODE')).split('\n');
    };
    // A snapshot runs by the folder above __snapshots__, a new file by its own path, a renamed one by
    // its new path; server/ has no official command.
    expect(run('10.12.0')).toEqual([
      "./node_modules/.bin/jest --verbose -c=test/client/jest.config.js 'client/state/test/index.js'",
      "./node_modules/.bin/jest --verbose -c=test/client/jest.config.js 'client/blocks/foo/test'",
      "./node_modules/.bin/jest --verbose -c=test/packages/jest.config.js 'packages/data-stores/src/test/new.ts'",
      'cd test/e2e',
      'NODE_CONFIG_ENV=test npm run test test/e2e/specs/renamed.js',
      'cd ../..',
    ]);
    expect(run('8.9.1')[0]).toBe(
      "./node_modules/.bin/jest --verbose -c=test/client/jest.config.json 'client/state/test/index.js'",
    );
    expect(run('0.8').slice(0, 3)).toEqual([
      "npm run test-client --verbose 'client/state/test/index.js'",
      "npm run test-client --verbose 'client/blocks/foo/test'",
      "npm run test-packages --verbose 'packages/data-stores/src/test/new.ts'",
    ]);
    // The files reset are those that existed: not the new one, the renamed one by its old path.
    expect(modifiedFiles(patch)).not.toContain('packages/data-stores/src/test/new.ts');
  });

  it('finds the files a patch changes that existed before it (new files are not reset)', () => {
    expect(modifiedFiles(fixtureText('patches/modify-and-add.diff'))).toEqual([
      'tests/test_core.py',
      'tests/test_io.py',
    ]);
    expect(modifiedFiles(fixtureText('patches/delete-and-rename.diff'))).toEqual([
      'tests/old_test.py',
      'tests/test_a.py',
    ]);
    expect(testDirectives(fixtureText('patches/modify-and-add.diff'), 'o/r')).toEqual([
      'tests/test_core.py',
      'tests/test_io.py',
    ]);
  });
});
