// The reader of docs/tutorial.md that test/e2e/tutorial.test.ts follows: an excerpt that is not in
// the output must fail it, or the e2e test would pass whatever the page says.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../support/cli.ts';
import { fillPlaceholders, matchExcerpt, tutorialSteps } from '../../support/tutorial.ts';

const OUTPUT = [
  'benchrig: my-shell (version 8326), 2 trial(s), mode processes',
  '  run folder: /tmp/p/evals/my-agent/my-shell/20261202-020116',
  '[1/2] FAILED          count-words (2.6s)  tests pass: exit 1: 1 passed, 1 failed',
  'pass rate  50.0% (95% CI 9.5%–90.5%)   mean score 0.75',
  '  count-words: sandbox kept: docker exec -it 8a2c82b00a13 sh   (remove it: docker rm -f 8a2c82b00a13)',
].join('\n');

describe('matchExcerpt', () => {
  it('finds lines in order, `…` as any text, runs of spaces as one, and captures `<name>`s', () => {
    const m = matchExcerpt(
      OUTPUT,
      [
        '  run folder: <run>',
        '…',
        '[…] FAILED count-words (…) tests pass: exit 1: 1 passed, 1 failed',
        'count-words: sandbox kept: docker exec -it <id> sh (remove it: docker rm -f <id>)',
      ],
      {},
    );
    expect(m).toEqual({ captured: { run: '/tmp/p/evals/my-agent/my-shell/20261202-020116', id: '8a2c82b00a13' } });
  });

  it('fails on a changed value, lines out of order, part of a line, or a word that differs from its capture', () => {
    expect(matchExcerpt(OUTPUT, ['pass rate 60.0% (95% CI 9.5%–90.5%) mean score 0.75'], {})).toHaveProperty('missing');
    expect(matchExcerpt(OUTPUT, ['pass rate …', 'run folder: …'], {})).toEqual({ missing: 'run folder: …' });
    expect(matchExcerpt(OUTPUT, ['FAILED count-words'], {})).toHaveProperty('missing');
    expect(
      matchExcerpt(OUTPUT, ['count-words: sandbox kept: docker exec -it <id> sh …'], { id: 'ffff' }),
    ).toHaveProperty('missing');
    const twice = OUTPUT.replace('docker rm -f 8a2c82b00a13', 'docker rm -f 000000000000');
    expect(matchExcerpt(twice, ['… docker exec -it <id> sh (remove it: docker rm -f <id>)'], {})).toHaveProperty(
      'missing',
    );
  });

  it('fills a command with captured words and refuses one never shown', () => {
    expect(fillPlaceholders('docker exec <id> cat count.txt', { id: 'abc' })).toBe('docker exec abc cat count.txt');
    expect(() => fillPlaceholders('npx benchrig compare <a> <b>', { a: 'x' })).toThrow(/<b>/);
    expect(fillPlaceholders('wc -w < notes.txt', {})).toBe('wc -w < notes.txt');
  });
});

describe('docs/tutorial.md as steps', () => {
  const steps = tutorialSteps(readFileSync(join(REPO, 'docs/tutorial.md'), 'utf8'));

  it('uses in a command only words an earlier excerpt showed', () => {
    const shown = new Set<string>();
    for (const step of steps) {
      if (step.kind === 'output')
        for (const l of step.lines) for (const m of l.matchAll(/<([a-z][a-z0-9-]*)>/g)) shown.add(m[1]);
      if (step.kind === 'commands')
        for (const c of step.commands)
          for (const m of c.matchAll(/<([a-z][a-z0-9-]*)>/g)) expect(shown, `${c} (line ${step.line})`).toContain(m[1]);
    }
  });

  it('has an excerpt only after commands, and reads every tutorial block', () => {
    expect(steps[0].kind).toBe('commands');
    steps.forEach((s, i) => {
      if (s.kind === 'output') expect(steps[i - 1].kind, `line ${s.line}`).toBe('commands');
    });
    expect(() => tutorialSteps('```toml tutorial\nx = 1\n```\n')).toThrow(/docs\/tutorial.md:1/);
  });
});
