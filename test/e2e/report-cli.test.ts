// `benchrig report` and `benchrig view` as a user runs them, on a run folder with known trials.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJson, runCli, tempDir, startView } from '../support/cli.ts';
import { writeRun } from './report-run.ts';
import { defined } from '../support/defined.ts';

describe('benchrig report', () => {
  it('prints the console summary with the analysis, read from the run folder', async () => {
    const { dir } = await writeRun();
    const r = await runCli(['report', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('pass rate  50.0% (95% CI 18.8%–81.2%)');
    expect(r.stdout).toContain('gate       FAILED incomplete: 1 of 7 trials without a verdict (pass_rate 0.5 < 0.8)');
    expect(r.stdout).toContain('missing    1 of 7 trials without a verdict (14.3%)');
    expect(r.stdout).toMatch(/judge \(llm_judge\)\s+60\.0%\s+3\/5/);
    expect(r.stdout).toContain('  errors       agent 1, sandbox 1');
    expect(r.stdout).toContain(
      '  slowest      evil-t1 9.00s (FAILED), alpha-t2 3.00s (FAILED), alpha-t1 2.00s (PASSED)',
    );
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('--format json prints evaluation_report.json; md, junit and html write to --out atomically', async () => {
    const { dir, report } = await writeRun();
    const json = await runCli(['report', dir, '--format', 'json']);
    expect(JSON.parse(json.stdout)).toEqual(report);

    const md = await runCli(['report', dir, '--format', 'md']);
    expect(md.stdout).toContain('Gate: **failed** — incomplete: 1 of 7 trials without a verdict (pass_rate 0.5 < 0.8)');
    expect(md.stdout).toContain('| judge | llm_judge | 60.0% | 3/5 |');

    const out = join(tempDir(), 'junit.xml');
    const junit = await runCli(['report', dir, '--format', 'junit', '--out', out]);
    expect(junit.code, junit.stderr).toBe(0);
    expect(junit.stdout).toBe('');
    const xml = readFileSync(out, 'utf8');
    expect(xml).toContain('tests="7" failures="3" errors="1" skipped="0"');
    expect(xml.match(/<testcase /g)).toHaveLength(7);

    const html = join(tempDir(), 'r.html');
    expect((await runCli(['report', dir, '--format', 'html', '--out', html])).code).toBe(0);
    expect(readFileSync(html, 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('appends the Markdown summary to $GITHUB_STEP_SUMMARY when it is set', async () => {
    const { dir } = await writeRun();
    const summary = join(tempDir(), 'step-summary.md');
    writeFileSync(summary, 'earlier step\n');
    const r = await runCli(['report', dir, '--format', 'json'], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(0);
    const text = readFileSync(summary, 'utf8');
    expect(text.startsWith('earlier step\n### ❌ benchrig: fixed-bench · fixture')).toBe(true);
  });

  it('refuses (exit 2) a tampered result file, an unknown schema version or a missing report, naming file and key', async () => {
    const { dir } = await writeRun();
    const file = join(dir, 'results', 'beta-t1.json');
    const good = readFileSync(file, 'utf8');
    const bad = readJson(file);
    bad.metadata.tokens.input = 'lots';
    writeFileSync(file, JSON.stringify(bad));
    let r = await runCli(['report', dir, '--format', 'json']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'benchrig: results/beta-t1.json: key metadata.tokens.input: expected number, got string',
    );
    expect(r.stdout).toBe('');

    writeFileSync(file, JSON.stringify({ ...JSON.parse(good), schema_version: 7 }));
    r = await runCli(['report', dir]);
    expect([r.code, r.stderr.trim()]).toEqual([
      2,
      'benchrig: results/beta-t1.json: unknown schema_version 7 (this benchrig reads version 1)',
    ]);
    writeFileSync(file, good);

    const report = readJson(join(dir, 'evaluation_report.json'));
    delete report.metrics.pass_rate;
    writeFileSync(join(dir, 'evaluation_report.json'), JSON.stringify(report));
    r = await runCli(['report', dir, '--format', 'md']);
    expect([r.code, r.stderr.trim()]).toEqual([
      2,
      'benchrig: evaluation_report.json: key metrics.pass_rate: missing (expected number)',
    ]);

    r = await runCli(['report', tempDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no evaluation_report.json');
  });
});

describe('benchrig view', () => {
  it('generates report.html when missing, serves it on 127.0.0.1 and stops on Ctrl-C', async () => {
    const { dir } = await writeRun();
    expect(existsSync(join(dir, 'report.html'))).toBe(false);
    const { child, address } = await startView(dir);
    try {
      const res = await fetch(address);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await res.text()).toBe(readFileSync(join(dir, 'report.html'), 'utf8'));
      expect((await fetch(`${address}../../etc/passwd`)).status).toBe(404);
    } finally {
      child.kill('SIGINT');
    }
    const done = await child;
    expect(done.exitCode).toBe(0);
  });

  it('refuses a request whose Host is not a loopback name with its port (DNS rebinding), serving nothing', async () => {
    const { dir } = await writeRun();
    const { child, address } = await startView(dir);
    const { port } = new URL(address);
    // A page on evil.example whose name was rebound to 127.0.0.1 reaches this port with its own name as Host.
    const get = (host: string, path = '/') =>
      new Promise<{ status: number; body: string }>((ok, fail) => {
        const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => ok({ status: defined(res.statusCode), body }));
        });
        req.on('error', fail).end();
      });
    try {
      const page = readFileSync(join(dir, 'report.html'), 'utf8');
      for (const host of [
        'evil.example',
        `evil.example:${port}`,
        `127.0.0.1.evil.example:${port}`,
        `localhost.evil.example:${port}`,
        `localhost:${Number(port) + 1}`,
        '127.0.0.1',
      ]) {
        for (const path of ['/', '/report.html']) {
          const r = await get(host, path);
          expect(r.status, `Host: ${host} ${path}`).toBe(421);
          expect(r.body).not.toContain('<html');
          expect(r.body).toContain(`http://127.0.0.1:${port}/`);
        }
      }
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
        const r = await get(host);
        expect(r.status, `Host: ${host}`).toBe(200);
        expect(r.body).toBe(page);
      }
    } finally {
      child.kill('SIGINT');
    }
    expect((await child).exitCode).toBe(0);
  });
});
