import { describe, expect, it } from 'vitest';
import { instanceKey, officialImage } from '../../../../src/formats/swebench/image.ts';

describe('official image names', () => {
  it('swebench/sweb.eval.x86_64.{instance_id}:latest, __ → _1776_, lower-cased', () => {
    expect(officialImage('django__django-11099')).toBe('swebench/sweb.eval.x86_64.django_1776_django-11099:latest');
    expect(officialImage('Automattic__wp-calypso-21964')).toBe(
      'swebench/sweb.eval.x86_64.automattic_1776_wp-calypso-21964:latest',
    );
    expect(officialImage('a__b-1', { namespace: 'ghcr.io/me', tag: 'v2', arch: 'arm64' })).toBe(
      'ghcr.io/me/sweb.eval.arm64.a_1776_b-1:v2',
    );
    expect(instanceKey('sympy__sympy-20590')).toBe('sympy_1776_sympy-20590');
  });
});
