// BlobStore on the local file system. A put streams into a temporary file under `tmp/`, counting
// bytes (the HTTP layer cannot be trusted to enforce a limit on a streamed body), fsyncs it and
// renames it into place, so a blob is either complete or absent. Anything that fails on the way
// (limit, client gone, disk full) removes the temporary file.
import { createReadStream } from 'node:fs';
import { access, constants, mkdir, open, readFile, readdir, rename, rm, stat, statfs, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SyncingFileSink } from './file-sink.js';
import { ByteLimit } from '../byte-limit.js';
import { feedCounter, whoFailed } from '../source-feed.js';
import { makeDirectory } from '../make-directory.js';
import { BlobNotFoundError, BlobSourceError, BlobStoreUnavailableError, BlobTooLargeError, type BlobPutOptions, type BlobStore } from '../../service/ports.js';

/** Keys are our own ("files/<guid>"), never user text; still refuse anything that could leave the root. */
const KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

/** Free space under which the store counts as down (no upload or output of any size would be safe). */
const MIN_FREE_BYTES = 16 * 1024 * 1024;

/** Keys handed out at a time by keysWrittenBefore. */
const KEYS_PAGE = 500;

export class DiskBlobStore implements BlobStore {
  private readonly tmpDir: string;

  /** `minFreeBytes`: less free space than this on the root's disk counts as the store being down */
  constructor(
    private readonly root: string,
    private readonly minFreeBytes = MIN_FREE_BYTES,
  ) {
    this.tmpDir = join(root, 'tmp');
  }

  /** the root is (or can be made) a directory this process may write in, on a disk with room left */
  async ping(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
    // a full disk took every upload and output write, while /readyz still said ready
    const fs = await statfs(this.root);
    const free = fs.bavail * fs.bsize;
    if (free < this.minFreeBytes) throw new Error(`the disk holding ${this.root} is full: ${free} bytes free, under ${this.minFreeBytes}`);
  }

  private path(key: string): string {
    if (!KEY.test(key) || key.split('/').some((p) => p === '..' || p === '.')) {
      throw new Error(`invalid blob key '${key}'`);
    }
    return join(this.root, key);
  }

  /**
   * Made (or checked) on every put, not remembered: a directory removed while the server runs (a tmp
   * cleaner takes empty ones, and tmp/ is empty when idle) failed every upload and slice until a
   * restart, while /readyz said ready. Two stats per put, beside its fsync.
   */
  private async ensureDir(dir: string): Promise<void> {
    await makeDirectory(dir);
  }

  async put(key: string, source: Readable | Uint8Array, opts: BlobPutOptions = {}): Promise<{ size: number }> {
    const final = this.path(key);
    const tmp = join(this.tmpDir, `${randomBytes(12).toString('hex')}.part`);
    let size = 0;
    try {
      await this.ensureDir(this.tmpDir);
      await this.ensureDir(dirname(final));
      if (source instanceof Uint8Array) {
        if (opts.maxBytes !== undefined && source.byteLength > opts.maxBytes) throw new BlobTooLargeError(opts.maxBytes);
        const handle = await open(tmp, 'wx', 0o644);
        try {
          await handle.writeFile(source);
          await handle.sync();
          const kept = (await handle.stat()).size;
          if (kept !== source.byteLength) throw new Error(`the disk kept ${kept} of ${source.byteLength} bytes`);
        } finally {
          await handle.close();
        }
        size = source.byteLength;
      } else {
        const counter = new ByteLimit(opts.maxBytes ?? Number.POSITIVE_INFINITY);
        const handle = await open(tmp, 'wx', 0o644);
        const feed = feedCounter(source, counter);
        try {
          await pipeline(counter, new SyncingFileSink(handle));
          // what the disk kept, not what the writes reported: Node 20.10's FileHandle.writev reports
          // bytes it did not write once a write fails (a file-size limit, a full disk), which stored
          // a silently truncated upload
          const kept = (await handle.stat()).size;
          if (kept !== counter.bytes) throw new Error(`the disk kept ${kept} of ${counter.bytes} bytes`);
        } catch (err) {
          // a write error (disk full, read-only, I/O) is the store's; a broken body the client's
          throw whoFailed(feed, counter, err);
        } finally {
          await handle.close();
        }
        size = counter.bytes;
      }
      await rename(tmp, final);
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      if (err instanceof BlobSourceError || err instanceof BlobTooLargeError) throw err;
      // whatever else failed (a directory, the open, a write, the rename) is the disk's
      throw err instanceof BlobStoreUnavailableError ? err : new BlobStoreUnavailableError(err);
    }
    await syncDir(dirname(final));
    return { size };
  }

  async get(key: string): Promise<{ stream: Readable; size: number }> {
    const file = this.path(key);
    try {
      const st = await stat(file);
      return { stream: createReadStream(file), size: st.size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(key);
      throw new BlobStoreUnavailableError(err);
    }
  }

  async read(key: string): Promise<Uint8Array> {
    const file = this.path(key);
    try {
      return await readFile(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(key);
      throw new BlobStoreUnavailableError(err);
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await stat(this.path(key));
      return true;
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async *keysWrittenBefore(prefix: string, beforeMs: number): AsyncIterable<string[]> {
    const dir = this.path(prefix.replace(/\/+$/, ''));
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return;
    }
    const base = `${prefix.replace(/\/+$/, '')}/`;
    for (let i = 0; i < names.length; i += KEYS_PAGE) {
      const page: string[] = [];
      for (const name of names.slice(i, i + KEYS_PAGE)) {
        try {
          const st = await stat(join(dir, name));
          if (st.isFile() && st.mtimeMs < beforeMs) page.push(base + name);
        } catch {
          /* deleted meanwhile */
        }
      }
      if (page.length) yield page;
    }
  }

  /** Removes temporary files older than `olderThanMs` (left by a process that died mid-write). */
  async sweepTemp(olderThanMs: number): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.tmpDir);
    } catch {
      return 0;
    }
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    for (const name of names) {
      const file = join(this.tmpDir, name);
      try {
        // 0 means all of them (file times can run a little ahead of Date.now())
        if (olderThanMs <= 0 || (await stat(file)).mtimeMs <= cutoff) {
          await unlink(file);
          removed++;
        }
      } catch {
        /* raced with its writer finishing: fine */
      }
    }
    return removed;
  }
}

/** Makes a rename durable; some file systems refuse to open a directory, which only costs durability. */
async function syncDir(dir: string): Promise<void> {
  try {
    const h = await open(dir, 'r');
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  } catch {
    /* best effort */
  }
}
