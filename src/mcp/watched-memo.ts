import fs from 'node:fs';

/**
 * Values one MCP connection computed from state files, reused until the file system says one of those files
 * may have changed (issue 14: a warm `anchor_status` at most 1.5× a minimal server on the same SDK).
 *
 * Why not stamps: on the machines we measured, one `stat` costs 15–25 µs, so checking the three files an
 * anchor check reads costs about what reading them does. Change notifications cost nothing per call: the
 * directories the value depends on are watched (`fs.watch`, inotify on Linux) and any event in any of them
 * forgets every value. The directories are given from the worktree root down, so that a directory swapped
 * for another (or created, or removed) shows as an event in its parent; after any event every watch is
 * dropped and set again on the next computation, on whatever the paths now name.
 *
 * Where a notification can be missed (a write through a hard link from another directory, a network file
 * system, a watch the system refuses), a value is still never older than `maxAgeMs`; a directory that
 * cannot be watched (other than one that does not exist yet, whose creation its watched parent reports)
 * means no value is kept at all. The connection also forgets everything after each tool call that writes.
 */
export class WatchedMemo<V> {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private readonly values = new Map<string, { value: V; at: number }>();

  constructor(
    private readonly maxAgeMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Forgets every value (a change was reported, or this connection wrote state). */
  invalidate(): void {
    this.values.clear();
  }

  /**
   * The value for `key`: the remembered one while nothing under `dirs` (a list, or a function that makes it
   * on a miss) changed, else `compute()`'s. Yields
   * to the event loop first, so a change notification that arrived together with this request is handled
   * before the remembered value is trusted.
   */
  async get(key: string, dirs: readonly string[] | (() => readonly string[]), compute: () => V): Promise<V> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const hit = this.values.get(key);
    if (hit !== undefined && this.now() - hit.at < this.maxAgeMs) return hit.value;
    // Watch first, then read: a change after this point is reported; one before it is read.
    const watched = this.watch(typeof dirs === 'function' ? dirs() : dirs);
    const at = this.now();
    const value = compute();
    if (watched) this.values.set(key, { value, at });
    else this.values.delete(key);
    return value;
  }

  /** Stops watching and forgets everything (the connection closed). */
  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.values.clear();
  }

  /** Any event: forget every value and every watch (a directory may have been swapped for another). */
  private changed = (): void => {
    this.close();
  };

  private watch(dirs: readonly string[]): boolean {
    for (const dir of dirs) {
      if (this.watchers.has(dir)) continue;
      try {
        const watcher = fs.watch(dir, { persistent: false }, this.changed);
        watcher.on('error', this.changed);
        this.watchers.set(dir, watcher);
      } catch (error) {
        // Not there yet: its parent (earlier in `dirs`) is watched and reports its creation.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' && this.watchers.size > 0) continue;
        return false;
      }
    }
    return true;
  }
}
