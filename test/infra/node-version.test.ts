/**
 * One Node.js line everywhere a newcomer or CI reads it: package.json's `engines`, the
 * README's requirements and `.ci/run`'s check say the same major, and the Lambdas' runtime
 * is at or above it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LAMBDA_BUNDLE } from '../../lib/infrastructure/bundling';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('the Node.js version', () => {
  it('is the same major in engines, the README and .ci/run, and the Lambdas run at or above it', () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    const major = Number(/^>=(\d+)$/.exec(engines)?.[1]);
    expect(major).toBeGreaterThan(0);

    const readme = [...read('README.md').matchAll(/Requirements: Node\.js (\d+)\+/g)].map(([, version]) =>
      Number(version),
    );
    expect(readme.length).toBeGreaterThan(0);
    expect(new Set(readme)).toEqual(new Set([major]));

    expect(Number(/^MIN_NODE_MAJOR=(\d+)$/m.exec(read('.ci/run'))?.[1])).toBe(major);
    expect(Number(/^node(\d+)$/.exec(LAMBDA_BUNDLE.target)?.[1])).toBeGreaterThanOrEqual(major);
  });
});
