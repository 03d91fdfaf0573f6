// POST /oauth2/token given what a broken or hostile client sends: malformed Basic credentials,
// bodies that are not JSON objects, unsupported content types, oversized forms.
// Every refusal is RFC 6749's body ({error, error_description}), never a 500.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, startTestServer, type CallResult, type TestServer } from './api-helpers.js';

function assertOAuthError(r: CallResult, status: number, error: string): void {
  assert.equal(r.status, status, r.text);
  assert.deepEqual(Object.keys(r.body ?? {}).sort(), ['error', 'error_description'], r.text);
  assert.equal(r.body.error, error, r.text);
  assert.ok(r.body.error_description.length > 0, r.text);
  assert.equal(r.headers.get('cache-control'), 'no-store');
}

describe('/oauth2/token refusals', () => {
  let t: TestServer;
  let keyId: string;
  before(async () => {
    t = await startTestServer();
    keyId = (await t.server.runtime.accounts.listKeys())[0]!.id;
  });
  after(async () => t?.close());
  const form = 'grant_type=client_credentials';
  const token = (body: string, contentType: string, headers: Record<string, string> = {}) =>
    call(t.url, '/oauth2/token', { body, headers: { 'Content-Type': contentType, ...headers } });
  const basic = (credentials: string) => ({ Authorization: `Basic ${Buffer.from(credentials).toString('base64')}` });

  test('Basic credentials that are not valid percent-encoding are invalid_request (400), not a 500', async () => {
    for (const credentials of ['a%zz:b', `${keyId}:%`, 'a:b%e0%a4%a']) {
      assertOAuthError(await token(form, 'application/x-www-form-urlencoded', basic(credentials)), 400, 'invalid_request');
    }
    // well-formed Basic credentials still work, percent-encoded or not
    const ok = await token(form, 'application/x-www-form-urlencoded', basic(`${encodeURIComponent(keyId)}:${t.key}`));
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.token_type, 'Bearer');
    // one way of authenticating per request (RFC 6749 §2.3.1): Basic and a client_secret in the body is refused
    const both = await token(`${form}&client_id=${encodeURIComponent(keyId)}&client_secret=${t.key}`, 'application/x-www-form-urlencoded', basic(`${encodeURIComponent(keyId)}:${t.key}`));
    assertOAuthError(both, 400, 'invalid_request');
    assert.match(both.body.error_description, /one way/);
    // a parameter sent twice (RFC 6749 §3.1): refused, not the last one taken
    const twice = await token(`${form}&client_id=bogus&client_id=${encodeURIComponent(keyId)}&client_secret=${t.key}`, 'application/x-www-form-urlencoded');
    assertOAuthError(twice, 400, 'invalid_request');
    assert.match(twice.body.error_description, /client_id is sent more than once/);
  });

  test('bodies the framework refuses are invalid_request in the same shape, not an empty {}', async () => {
    for (const body of ['[', '[]', '"client_credentials"', '', '{"grant_type": "client_credentials",']) {
      assertOAuthError(await token(body, 'application/json'), 400, 'invalid_request');
    }
    assertOAuthError(await token(form, 'text/plain'), 400, 'invalid_request');
    assertOAuthError(await token(`${form}&pad=${'x'.repeat(20_000)}`, 'application/x-www-form-urlencoded'), 413, 'invalid_request');
    // refused by the route itself, as before
    assertOAuthError(await token('{"grant_type": 5}', 'application/json'), 400, 'unsupported_grant_type');
    // RFC 6749 §5.2: a missing grant_type is a missing parameter
    assertOAuthError(await token(`client_id=${keyId}&client_secret=x`, 'application/x-www-form-urlencoded'), 400, 'invalid_request');
    assertOAuthError(await token(`${form}&client_id=${keyId}&client_secret=wrong`, 'application/x-www-form-urlencoded'), 401, 'invalid_client');
  });
});
