// Accounts, API keys and OAuth2 access tokens. Secrets are shown once, when created, and stored
// only as sha256 hashes. Every file, task and output belongs to exactly one account.
import { hashSecret, newId, newKeyId, newSecret } from './ids.js';
import type { Account, ApiKeyRecord } from './model.js';
import type { MetadataStore } from './ports.js';

export const TOKEN_LIFETIME_S = 3600;

export interface CreatedKey {
  /** the secret: shown once, never stored */
  key: string;
  record: ApiKeyRecord;
  account: Account;
}

export class AccountError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccountError';
  }
}

/** Recently verified credentials → account, so most requests skip the hash and the store. */
class CredentialCache {
  private readonly entries = new Map<string, { accountId: string; until: number }>();
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}
  get(credential: string, now: number): string | null {
    const e = this.entries.get(credential);
    if (!e) return null;
    if (e.until > now) return e.accountId;
    this.entries.delete(credential);
    return null;
  }
  set(credential: string, accountId: string, now: number, expiresAt = Infinity): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(credential, { accountId, until: Math.min(now + this.ttlMs, expiresAt) });
  }
  clear(): void {
    this.entries.clear();
  }
}

/** The longest key name: a label in a table, not a document. */
const MAX_KEY_NAME = 100;

export class AccountService {
  private readonly cache: CredentialCache;

  /**
   * `cacheMs`: how long a verified key or token is trusted without asking the store again, so a
   * key revoked by another process (`stratum keys revoke`) stops working within that time.
   */
  constructor(
    private readonly store: MetadataStore,
    cacheMs = 0,
  ) {
    this.cache = new CredentialCache(cacheMs);
  }

  /**
   * A new key. Without `account` the key gets a new account of the same name (one account per
   * client is the common case); with `account` (id or name) it joins that account.
   */
  async createKey(name: string, account?: string): Promise<CreatedKey> {
    const keyName = name.trim();
    if (!keyName) throw new AccountError('a key needs a name');
    // a label for people, printed in `stratum keys list`'s table: one short line
    if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(keyName)) throw new AccountError('a key name must be one line without control characters');
    if (keyName.length > MAX_KEY_NAME) throw new AccountError(`a key name may have at most ${MAX_KEY_NAME} characters, not ${keyName.length}`);
    let owner: Account | null;
    if (account) {
      owner = await this.store.findAccount(account);
      if (!owner) throw new AccountError(`no account '${account}'`);
    } else {
      owner = { id: newId(), name: keyName, createdAt: Date.now() };
      await this.store.insertAccount(owner);
    }
    const key = newSecret();
    const record: ApiKeyRecord = {
      id: newKeyId(),
      accountId: owner.id,
      name: keyName,
      keyHash: hashSecret(key),
      createdAt: Date.now(),
      revokedAt: null,
    };
    await this.store.insertApiKey(record);
    return { key, record, account: owner };
  }

  listKeys(): Promise<ApiKeyRecord[]> {
    return this.store.listApiKeys();
  }

  async revokeKey(keyId: string): Promise<boolean> {
    const revoked = await this.store.revokeApiKey(keyId, Date.now());
    this.cache.clear();
    return revoked;
  }

  async hasActiveKeys(): Promise<boolean> {
    return (await this.store.countActiveKeys()) > 0;
  }

  /** The account of a subscription key, or null. */
  async accountOfKey(key: string): Promise<string | null> {
    if (!key) return null;
    const now = Date.now();
    const cached = this.cache.get(key, now);
    if (cached) return cached;
    const record = await this.store.findActiveKeyByHash(hashSecret(key));
    if (!record) return null;
    this.cache.set(key, record.accountId, now);
    return record.accountId;
  }

  /** OAuth2 client credentials: client_id is the key id, client_secret the key itself. */
  async issueToken(clientId: string, clientSecret: string): Promise<{ accessToken: string; expiresIn: number } | null> {
    const record = await this.store.findActiveKeyByHash(hashSecret(clientSecret));
    // the id must match too, so a leaked id alone or a key alone under another id gets nothing
    if (!record || record.id !== clientId) return null;
    const accessToken = newSecret();
    await this.store.insertAccessToken({
      tokenHash: hashSecret(accessToken),
      accountId: record.accountId,
      keyId: record.id,
      expiresAt: Date.now() + TOKEN_LIFETIME_S * 1000,
    });
    return { accessToken, expiresIn: TOKEN_LIFETIME_S };
  }

  /** The account of a bearer token that has not expired and whose key is still active, or null. */
  async accountOfToken(token: string): Promise<string | null> {
    if (!token) return null;
    const now = Date.now();
    const cached = this.cache.get(`bearer:${token}`, now);
    if (cached) return cached;
    const record = await this.store.findAccessToken(hashSecret(token), now);
    if (!record) return null;
    this.cache.set(`bearer:${token}`, record.accountId, now, record.expiresAt);
    return record.accountId;
  }
}
