// A writable stream into an open file that asks the kernel to write data out while more is still
// arriving (fdatasync every `syncEveryBytes`), then fsyncs at the end. With large page caches the
// kernel would otherwise hold a whole upload in memory and write all of it in the final fsync,
// after the last byte arrived: overlapping the two is what lets uploads reach disk speed.
import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

export class SyncingFileSink extends Writable {
  private sinceSync = 0;
  private syncing: Promise<void> | null = null;
  bytes = 0;

  constructor(
    private readonly handle: FileHandle,
    private readonly syncEveryBytes = 32 * 1024 * 1024,
  ) {
    super({ highWaterMark: 1024 * 1024 });
  }

  private async writeAll(buffers: Buffer[]): Promise<void> {
    let pending = buffers;
    while (pending.length > 0) {
      const { bytesWritten } = await this.handle.writev(pending);
      this.bytes += bytesWritten;
      this.sinceSync += bytesWritten;
      // a short write (rare, regular files) continues with what is left
      let skip = bytesWritten;
      const rest: Buffer[] = [];
      for (const b of pending) {
        if (skip >= b.length) skip -= b.length;
        else {
          rest.push(skip > 0 ? b.subarray(skip) : b);
          skip = 0;
        }
      }
      pending = rest;
    }
    if (this.sinceSync >= this.syncEveryBytes && !this.syncing) {
      this.sinceSync = 0;
      // not awaited: the next chunks are written while this one goes to disk
      this.syncing = this.handle.datasync().finally(() => {
        this.syncing = null;
      });
      this.syncing.catch(() => undefined);
    }
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, done: (err?: Error | null) => void): void {
    this.writeAll(chunks.map((c) => c.chunk)).then(() => done(), done);
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.writeAll([chunk]).then(() => done(), done);
  }

  override _final(done: (err?: Error | null) => void): void {
    Promise.resolve(this.syncing)
      .then(() => this.handle.sync())
      .then(() => done(), done);
  }
}
