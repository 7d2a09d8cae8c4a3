// The C, Go, Java, PHP, Ruby and Rust parsers, and more JavaScript ones, on their fixture logs, statuses read off the logs by
// hand (npm run test:parity holds them to the official ones on the same logs).
import { describe, expect, it } from 'vitest';
import { PARSERS, parserFor } from '../../../../src/formats/swebench/parsers/index.ts';
import { fixtureText, statusOf } from './helpers.ts';

const parse = (name: string, log: string, instance_id = 'o__r-1') => {
  const p = parserFor({ instance_id, repo: '', log_parser: name });
  if (typeof p === 'string') throw new Error(p);
  return statusOf(p(fixtureText(`logs/${log}`), { instance_id }));
};

describe('log parsers of other languages', () => {
  it('go test: subtests by full name; a line without a duration is no result', () => {
    expect(parse('parse_log_gotest', 'gotest.txt')).toEqual({
      'TestServer/handles_a_request': 'PASSED',
      'TestServer/needs network': 'SKIPPED',
      TestServer: 'PASSED',
      TestRoute: 'FAILED',
    });
  });

  it('cargo: ok and FAILED, ignored left out', () => {
    expect(parse('parse_log_cargo', 'cargo.txt')).toEqual({
      'regression::r1': 'PASSED',
      'misc::binary_search': 'FAILED',
      'feature::f45_précis': 'PASSED',
    });
  });

  it('phpunit: each test under its suite, "None" before any', () => {
    expect(parse('parse_log_phpunit', 'phpunit.txt')).toMatchObject({
      'None > Runs before any suite': 'PASSED',
      'Cell Address > Relative reference with "quotes"': 'FAILED',
      'Cell Address > Skipped on windows': 'SKIPPED',
      'Data Type > Absolute reference': 'PASSED',
    });
  });

  it('maven: tests and BUILD results paired first come, first served, including results logged first', () => {
    expect(parse('parse_log_maven', 'maven.txt')).toEqual({
      'com.google.gson.FooTest#testA': 'PASSED',
      'com.google.gson.FooTest#testB': 'FAILED',
      'com.google.gson.BarTest#testC': 'PASSED',
    });
    expect(parse('parse_log_maven', 'maven-race.txt')).toEqual({ 'a.ATest#one': 'FAILED', 'a.ATest#two': 'PASSED' });
  });

  it('redis: a failure named without its file; doctest: subcases by case, failed by any expression', () => {
    expect(parse('parse_log_redis', 'redis.txt')).toMatchObject({
      'INCR fails against a key holding a list': 'FAILED',
      'Not supported in cluster mode': 'SKIPPED',
      'SET and GET an item': 'PASSED',
    });
    expect(parse('parse_log_doctest', 'doctest.txt')).toEqual({
      'element access & more > front and back': 'FAILED',
      'element access & more > nested': 'FAILED',
      'element access & more > no checks': 'PASSED',
      'parse > "quoted"': 'PASSED',
    });
    expect(
      PARSERS.parse_log_doctest?.('<doctest><TestCase name="a"><SubCase name="b"></TestCase></doctest>', {
        instance_id: 'o__r-1',
      }),
    ).toEqual(new Map());
  });

  it('test-unit: a letter is a status only as a word; jekyll picks its runner by pull request, else it is refused', () => {
    expect(parse('parse_log_ruby_unit', 'ruby-unit.txt')).toEqual({
      'parses a record': 'PASSED',
      'TestOut#test_emit': 'FAILED',
      test_buffer: 'FAILED',
      'TestOut#test_omit': 'SKIPPED',
      '日本語 テスト': 'PASSED',
    });
    expect(parse('parse_log_jekyll', 'cucumber.txt', 'jekyll__jekyll-8761')).toEqual({
      'Scenario: builds a site': 'PASSED',
      'Scenario: renders pages': 'FAILED',
      'features/a.feature:3': 'FAILED',
    });
    expect(parserFor({ instance_id: 'jekyll__jekyll-1', repo: 'jekyll/jekyll' })).toMatch(/no runner for instance/);
  });

  it('JavaScript: Grommet lets a later PASS win and cuts timings; Chart.js reads FAILED lines through colour codes', () => {
    expect(parse('parse_log_grommet', 'grommet.txt')).toEqual({
      'src/js/components/Box/__tests__/Box-test.tsx': 'PASSED',
      'src/js/components/Text/__tests__/Text-test.tsx': 'PASSED',
      'src/js/a.tsx': 'PASSED',
    });
    expect(parse('parse_log_chart_js', 'chart-js.txt')).toEqual({
      'Chart.controllers.bar should draw bars ': 'FAILED',
      'Core.scale should fit ': 'FAILED',
    });
  });
});
