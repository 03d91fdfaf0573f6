// BlobStore on S3-compatible object storage (AWS S3, MinIO, s3rver in the tests). Uploads stream
// through lib-storage's multipart Upload, so at most partSize × queueSize bytes of a body are in
// memory whatever its size. S3 makes an object visible only when its PutObject or
// CompleteMultipartUpload succeeds, which gives the "complete or absent" promise of `put`; on any
// failure (limit, client gone) the multipart upload is aborted and the key deleted for good measure.
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import { BlobNotFoundError, BlobStoreUnavailableError, BlobTooLargeError, type BlobPutOptions, type BlobStore } from '../../service/ports.js';
import { ByteLimit } from '../byte-limit.js';
import { feedCounter, whoFailed } from '../source-feed.js';

/** Serialisable, so worker threads open the same store (credentials included: same process). */
export interface S3BlobConfig {
  kind: 's3';
  /** e.g. http://127.0.0.1:9000; empty for AWS itself */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** prepended to every key ("stratum/"), so one bucket can hold other things too */
  prefix?: string;
}

/**
 * S3's smallest part is 5 MiB and an upload has at most 10,000 parts. lib-storage holds a part
 * being filled plus QUEUE_SIZE parts in flight (~4 parts with copies), so ~20 MiB per upload.
 */
const MIN_PART_SIZE = 5 * 1024 * 1024;
const MAX_PARTS = 10_000;
const QUEUE_SIZE = 2;

/** Keys are our own ("files/<guid>"), never user text. */
const KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

/** The bucket does not exist (and was not to be made). */
export class BucketMissing extends Error {
  override name = 'BucketMissing';
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** the smallest part size that fits `maxBytes` in 10,000 parts (no limit: 5 MiB, objects to ~48 GiB) */
function partSizeFor(maxBytes: number | undefined): number {
  return maxBytes === undefined ? MIN_PART_SIZE : Math.max(MIN_PART_SIZE, Math.ceil(maxBytes / MAX_PARTS));
}

/** How long /readyz waits for the bucket to answer. */
const PING_TIMEOUT_MS = 2000;
/** how long the start-up check of the bucket may wait for an answer */
const START_TIMEOUT_MS = 15_000;

export class S3BlobStore implements BlobStore {
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(config: S3BlobConfig) {
    this.bucket = config.bucket;
    this.prefix = config.prefix ?? '';
    this.client = new S3Client({
      region: config.region || 'us-east-1',
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      // path-style (http://host/bucket/key) works with every S3-compatible server
      forcePathStyle: true,
      // no key given: the SDK's own chain (AWS_* variables, instance or pod roles) supplies one
      ...(config.accessKeyId ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } } : {}),
      // checksums only where S3 demands them: they cost CPU and older compatible servers reject them
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // a server that takes the connection and then says nothing fails the request instead of
      // holding an upload, a slice's output or a start-up for ever (the timeout is of silence,
      // not of the whole transfer: a large file streams for as long as bytes move)
      requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
    });
  }

  private key(key: string): string {
    if (!KEY.test(key) || key.split('/').some((p) => p === '..' || p === '.')) {
      throw new Error(`invalid blob key '${key}'`);
    }
    return this.prefix + key;
  }

  /** the bucket answers (HeadBucket), within PING_TIMEOUT_MS: a readiness probe must not hang */
  async ping(): Promise<void> {
    // a timer of our own, not AbortSignal.timeout (Node 20 keeps those signals in a FinalizationRegistry)
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), PING_TIMEOUT_MS);
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: controller.signal });
    } finally {
      clearTimeout(timer);
    }
  }

  async *keysWrittenBefore(prefix: string, beforeMs: number): AsyncIterable<string[]> {
    const Prefix = `${this.key(prefix.replace(/\/+$/, ''))}/`;
    let token: string | undefined;
    do {
      const res = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix, ContinuationToken: token, MaxKeys: 1000 }),
      );
      const page = (res.Contents ?? [])
        .filter((o) => o.Key && o.LastModified && o.LastModified.getTime() < beforeMs)
        .map((o) => o.Key!.slice(this.prefix.length));
      if (page.length) yield page;
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
  }

  /** creates the bucket when it does not exist (first start against an empty server) */
  /** Checks the bucket answers; makes it when missing unless `create` is false (then: BucketMissing). */
  async ensureBucket(opts: { create?: boolean } = {}): Promise<void> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), START_TIMEOUT_MS);
    try {
      try {
        await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: controller.signal });
      } catch (err) {
        if (!isNotFound(err)) throw err;
        if (opts.create === false) throw new BucketMissing(`there is no bucket '${this.bucket}'`);
        await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }), { abortSignal: controller.signal });
      }
    } catch (err) {
      if (err instanceof BucketMissing) throw err;
      if (controller.signal.aborted) throw new Error(`no answer within ${START_TIMEOUT_MS / 1000} s`);
      // HeadBucket's errors have no body: the SDK names a 403 'UnknownError'
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 403) throw new Error('access denied (403): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, and what that key may do with the bucket');
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  async put(key: string, source: Readable | Uint8Array, opts: BlobPutOptions = {}): Promise<{ size: number }> {
    const Key = this.key(key);
    if (source instanceof Uint8Array) {
      if (opts.maxBytes !== undefined && source.byteLength > opts.maxBytes) throw new BlobTooLargeError(opts.maxBytes);
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key, Body: source, ContentLength: source.byteLength }),
      );
      return { size: source.byteLength };
    }
    const counter = new ByteLimit(opts.maxBytes ?? Number.POSITIVE_INFINITY);
    const feed = feedCounter(source, counter);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key, Body: counter },
      partSize: partSizeFor(opts.maxBytes),
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      counter.destroy();
      await upload.abort().catch(() => undefined);
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key })).catch(() => undefined);
      throw whoFailed(feed, counter, err);
    }
    if (counter.failure) {
      // lib-storage saw the stream end, but the end was an error: do not keep what arrived
      await this.delete(key);
      throw whoFailed(feed, counter, counter.failure);
    }
    return { size: counter.bytes };
  }

  async get(key: string): Promise<{ stream: Readable; size: number }> {
    const Key = this.key(key);
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
      return { stream: res.Body as Readable, size: res.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFoundError(key);
      throw new BlobStoreUnavailableError(err);
    }
  }

  async read(key: string): Promise<Uint8Array> {
    const Key = this.key(key);
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
      return await res.Body!.transformToByteArray();
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFoundError(key);
      throw new BlobStoreUnavailableError(err);
    }
  }

  async exists(key: string): Promise<boolean> {
    const Key = this.key(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw new BlobStoreUnavailableError(err);
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
  }

  close(): void {
    this.client.destroy();
  }
}
