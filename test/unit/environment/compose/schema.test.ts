import { describe, expect, it } from 'vitest';
import { ComposeProblem } from '../../../../src/environment/compose/problem.ts';
import { validateCompose } from '../../../../src/environment/compose/schema.ts';

const problem = (doc: unknown): string | null => {
  try {
    validateCompose(doc);
    return null;
  } catch (err) {
    if (err instanceof ComposeProblem) return `${err.key}: ${err.message}`;
    throw err;
  }
};

describe('the compose-spec JSON schema (vendored, draft 2020-12, ajv)', () => {
  it('accepts a file that follows the specification, x- extensions included', () => {
    expect(
      problem({
        services: {
          web: {
            image: 'a',
            ports: ['80:80'],
            healthcheck: { test: ['CMD', 'true'], interval: '1s' },
            'x-default': true,
          },
        },
        volumes: { shared: {} },
        'x-anything': { a: 1 },
      }),
    ).toBeNull();
  });

  it('names an unknown key and its path', () => {
    expect(problem({ services: { web: { image: 'a', imagee: 'b' } } })).toBe(
      'services.web: unknown key "imagee" (not in the compose specification)',
    );
    expect(problem({ services: {}, volumez: {} })).toBe(': unknown key "volumez" (not in the compose specification)');
  });

  it('names the path of a value of the wrong type, list indexes included', () => {
    expect(problem({ services: { web: { image: ['a'] } } })).toMatch(/^services\.web\.image: must be string/);
    expect(problem({ services: { web: { image: 'a', volumes: [{ target: 5 }] } } })).toMatch(
      /^services\.web\.volumes\[0\]/,
    );
  });

  it('names an enum with its allowed values', () => {
    expect(
      problem({
        services: { web: { image: 'a', depends_on: { db: { condition: 'service_ready' } } }, db: { image: 'b' } },
      }),
    ).toMatch(
      /^services\.web\.depends_on\.db\.condition: must be one of \["service_started","service_healthy","service_completed_successfully"\]/,
    );
  });
});
