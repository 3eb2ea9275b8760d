import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sameSecret } from '../../src/lib/same-secret.ts';

test('a presented secret matches only the expected one, whatever its length; a missing one never', () => {
  assert.equal(sameSecret('s3cret-token', 's3cret-token'), true);
  assert.equal(sameSecret('s3cret-tokeN', 's3cret-token'), false);
  assert.equal(sameSecret('s3cret', 's3cret-token'), false);
  assert.equal(sameSecret('', 's3cret-token'), false);
  assert.equal(sameSecret(undefined, 's3cret-token'), false);
});

test('the expected secret may change from one call to the next: each call compares with its own', () => {
  assert.equal(sameSecret('token-a', 'token-a'), true);
  assert.equal(sameSecret('token-a', 'token-b'), false);
  assert.equal(sameSecret('token-b', 'token-b'), true);
  assert.equal(sameSecret('token-b', 'token-a'), false);
  assert.equal(sameSecret('token-a', 'token-a'), true);
});
