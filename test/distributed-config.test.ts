// Configuration of the distributed mode: DATABASE_URL + S3_* switch it on, roles need it, and the
// embedded default needs none of it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, isDistributed, loadConfig } from '../src/service/config.js';

const DIST = {
  DATABASE_URL: 'postgres://u:p@db:5432/stratum',
  S3_ENDPOINT: 'http://minio:9000',
  S3_BUCKET: 'stratum',
  S3_ACCESS_KEY_ID: 'id',
  S3_SECRET_ACCESS_KEY: 'secret',
};

test('no environment: the embedded store, both roles in one process', () => {
  const c = loadConfig({ env: {} });
  assert.equal(isDistributed(c), false);
  assert.equal(c.role, 'all');
  assert.equal(c.databaseUrl, '');
});

test('DATABASE_URL and S3_* from the environment make it distributed', () => {
  const c = loadConfig({ env: { ...DIST, S3_REGION: 'eu-central-1', STRATUM_ROLE: 'worker' } });
  assert.equal(isDistributed(c), true);
  assert.equal(c.role, 'worker');
  assert.equal(c.s3Endpoint, 'http://minio:9000');
  assert.equal(c.s3Bucket, 'stratum');
  assert.equal(c.s3Region, 'eu-central-1');
  assert.equal(c.s3AccessKeyId, 'id');
  assert.equal(c.s3SecretAccessKey, 'secret');
});

test('the --role flag wins over STRATUM_ROLE', () => {
  assert.equal(loadConfig({ env: { ...DIST, STRATUM_ROLE: 'worker' }, overrides: { role: 'api' } }).role, 'api');
});

test('an unknown role is refused', () => {
  assert.throws(() => loadConfig({ env: { ...DIST, STRATUM_ROLE: 'cook' } }), /role must be one of all, api, worker/);
});

test('api or worker roles without a database are refused: the embedded store is one process', () => {
  assert.throws(() => loadConfig({ env: { STRATUM_ROLE: 'api' } }), ConfigError);
  assert.throws(() => loadConfig({ env: {}, overrides: { role: 'worker' } }), /needs the distributed mode/);
});

test('half a distributed configuration is refused, naming what is missing', () => {
  const { S3_BUCKET: _b, ...noBucket } = DIST;
  assert.throws(() => loadConfig({ env: noBucket }), /S3_BUCKET is not/);
  const { DATABASE_URL: _d, ...noDb } = DIST;
  assert.throws(() => loadConfig({ env: noDb }), /DATABASE_URL is not/);
  assert.throws(() => loadConfig({ env: { ...DIST, DATABASE_URL: 'mysql://x' } }), /postgres:\/\//);
  assert.throws(() => loadConfig({ env: { ...DIST, S3_ENDPOINT: 'minio:9000' } }), /http:\/\//);
});
