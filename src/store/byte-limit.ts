// Counts the bytes of a streamed body and fails past a limit: the HTTP layer does not enforce a
// limit on a streamed body, so the store does.
import { Transform, type TransformCallback } from 'node:stream';
import { BlobTooLargeError } from '../service/ports.js';

export class ByteLimit extends Transform {
  bytes = 0;
  /** the error that ended the stream, if any (kept: consumers may only see a generic abort) */
  failure: Error | null = null;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) {
      this.failure = new BlobTooLargeError(this.limit);
      done(this.failure);
    } else done(null, chunk);
  }

  override _destroy(err: Error | null, cb: (error: Error | null) => void): void {
    if (err && !this.failure) this.failure = err;
    cb(err);
  }
}
