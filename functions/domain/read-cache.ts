import type { Clock } from './clock';

/**
 * Reads kept by key for a while. The read itself is kept, not its value: whoever asks while
 * it is in flight shares it (a batch's messages for one partner arrive together on a cold
 * cache and must not each read). A failed read is dropped, so the next caller reads again.
 */
export class ReadCache<K, V> {
  private readonly entries = new Map<K, { readonly read: Promise<V>; readonly until: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly keepMilliseconds: number,
  ) {}

  /** The kept read of `key` while it is fresh; otherwise `read()`, kept. */
  get(key: K, read: () => Promise<V>): Promise<V> {
    return this.fresh(key) ?? this.keep(key, read());
  }

  /** The kept read of `key`, if it is still fresh. */
  fresh(key: K): Promise<V> | undefined {
    const entry = this.entries.get(key);
    return entry && entry.until > this.clock.now().getTime() ? entry.read : undefined;
  }

  /** Keeps `read` as `key`'s, from now on. */
  keep(key: K, read: Promise<V>): Promise<V> {
    const entry = { read, until: this.clock.now().getTime() + this.keepMilliseconds };
    this.entries.set(key, entry);
    read.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return read;
  }

  /** `key` changed: its next `get` reads. */
  forget(key: K): void {
    this.entries.delete(key);
  }
}
