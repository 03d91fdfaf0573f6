// Identifiers: GUIDs for files, tasks and outputs (the interface shows GUIDs), random secrets for keys.
import { createHash, randomBytes, randomUUID } from 'node:crypto';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function newId(): string {
  return randomUUID();
}

export function isGuid(s: unknown): s is string {
  return typeof s === 'string' && GUID.test(s);
}

/** GUIDs compare case-insensitively; the stores hold them in lower case. */
export function normaliseGuid(s: string): string {
  return s.toLowerCase();
}

/** A secret of 32 random bytes as hex (API keys, access tokens). */
export function newSecret(): string {
  return randomBytes(32).toString('hex');
}

/** Secrets are random 256-bit values, so a plain sha256 is enough to store them (no password stretching). */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A short public id for an API key (also its OAuth2 client_id). */
export function newKeyId(): string {
  return `key_${randomBytes(8).toString('hex')}`;
}
