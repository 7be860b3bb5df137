import { describe, expect, it } from 'vitest';
import { ReadCache } from '../../functions/domain/read-cache';
import { ManualClock } from '../support/manual-clock';

describe('ReadCache', () => {
  const setUp = () => {
    const clock = new ManualClock();
    const reads: string[] = [];
    const cache = new ReadCache<string, string>(clock, 1000);
    const read =
      (key: string, value = `${key}@${clock.now().getTime()}`) =>
      () => {
        reads.push(key);
        return Promise.resolve(value);
      };
    return { clock, reads, cache, read };
  };

  it('keeps a read for its time, then reads again', async () => {
    const { clock, reads, cache, read } = setUp();
    const first = await cache.get('a', read('a'));
    clock.advance(999);
    expect(await cache.get('a', read('a'))).toBe(first);
    expect(reads).toEqual(['a']);
    clock.advance(1);
    expect(cache.fresh('a')).toBeUndefined();
    expect(await cache.get('a', read('a'))).not.toBe(first);
    expect(reads).toEqual(['a', 'a']);
  });

  it('shares a read in flight among everyone who asks', async () => {
    const { cache } = setUp();
    let reads = 0;
    let finish!: (value: string) => void;
    const slow = () => ((reads += 1), new Promise<string>((done) => (finish = done)));
    const asked = [cache.get('a', slow), cache.get('a', slow), cache.get('a', slow)];
    finish('value');
    expect(await Promise.all(asked)).toEqual(['value', 'value', 'value']);
    expect(reads).toBe(1);
  });

  it('drops a failed read, so the next caller reads again', async () => {
    const { cache, reads, read } = setUp();
    await expect(cache.get('a', () => Promise.reject(new Error('throttled')))).rejects.toThrow('throttled');
    expect(await cache.get('a', read('a', 'value'))).toBe('value');
    expect(reads).toEqual(['a']);
  });

  it('reads again once told the key changed, and keeps a read handed to it', async () => {
    const { cache, reads, read } = setUp();
    await cache.get('a', read('a', 'old'));
    cache.forget('a');
    expect(await cache.get('a', read('a', 'new'))).toBe('new');
    cache.keep('b', Promise.resolve('given'));
    expect(await cache.get('b', read('b'))).toBe('given');
    expect(reads).toEqual(['a', 'a']);
  });
});
