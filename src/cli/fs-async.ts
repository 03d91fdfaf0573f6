// The few asynchronous file calls `stratum slice` makes, on Node's callback API. node:fs/promises
// would do the same, but loading it (with the stream and readline modules it pulls in) costs a
// small model's whole-process slice a few milliseconds; node:fs and node:util are loaded anyway.
import * as fs from 'node:fs';
import { promisify } from 'node:util';

export const readFile = promisify(fs.readFile) as (path: string) => Promise<Buffer>;
export const stat = promisify(fs.stat) as (path: string) => Promise<fs.Stats>;
export const lstat = promisify(fs.lstat) as (path: string) => Promise<fs.Stats>;
export const realpath = promisify(fs.realpath) as (path: string) => Promise<string>;
export const rename = promisify(fs.rename);
export const unlink = promisify(fs.unlink);
export const writeFile = promisify(fs.writeFile) as (path: string, data: Uint8Array) => Promise<void>;
export const open = promisify(fs.open) as (path: string, flags: string, mode?: number) => Promise<number>;
export const fsync = promisify(fs.fsync);
export const close = promisify(fs.close);
const writeSome = (fd: number, data: Uint8Array, offset: number, length: number) =>
  new Promise<number>((resolve, reject) => fs.write(fd, data, offset, length, null, (err, written) => (err ? reject(err) : resolve(written))));

/** Writes all of `data` to the open file `fd` (one write call may take only part of it). */
export async function writeAll(fd: number, data: Uint8Array): Promise<void> {
  for (let done = 0; done < data.length; ) {
    const n = await writeSome(fd, data, done, data.length - done);
    // a file write that takes nothing and reports no error would otherwise loop for ever
    if (n <= 0) throw Object.assign(new Error('the file system accepted no more bytes'), { code: 'EIO' });
    done += n;
  }
}
