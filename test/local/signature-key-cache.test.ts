import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { expectedSignature, verifySignature, type Signature } from '../../src/local/access/signature';

/** The derived signing key is cached: a cached key must never stand in for another secret, day, region or service. */
const cache = suite('SigV4 signing keys cached per secret and credential scope');

const body = Buffer.from('{"TableName":"t"}');
const hash = createHash('sha256').update(body).digest('hex');

function signed(secret: string, region: string, service: string, now: Date) {
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const date = amzDate.slice(0, 8);
  const rawHeaders = ['Host', '127.0.0.1:4566', 'X-Amz-Date', amzDate, 'Content-Type', 'application/x-amz-json-1.0'];
  const signature: Signature = { accessKeyId: 'AKID', scope: `${date}/${region}/${service}/aws4_request`, date, region, service, signedHeaders: ['content-type', 'host', 'x-amz-date'], signature: '', amzDate, presigned: false };
  const request = { method: 'POST', url: '/', rawHeaders, body };
  return { request, signature: { ...signature, amzDate: undefined, signature: expectedSignature(request, signature, secret, hash) } };
}

cache('the key of one secret, day, region or service is not used for another', () => {
  const now = new Date();
  const a = signed('secret-a', 'us-east-1', 'dynamodb', now);
  assert.is(verifySignature(a.request, a.signature, 'secret-a', now.getTime()), undefined);
  assert.is(verifySignature(a.request, a.signature, 'secret-a', now.getTime()), undefined);
  assert.is(verifySignature(a.request, a.signature, 'secret-b', now.getTime()), 'mismatch');
  const b = signed('secret-b', 'us-east-1', 'dynamodb', now);
  assert.is(verifySignature(b.request, b.signature, 'secret-b', now.getTime()), undefined);
  assert.is(verifySignature(b.request, b.signature, 'secret-a', now.getTime()), 'mismatch');
  for (const [region, service] of [['eu-west-1', 'dynamodb'], ['us-east-1', 'sqs']]) {
    const other = signed('secret-a', region, service, now);
    assert.is(verifySignature(other.request, other.signature, 'secret-a', now.getTime()), undefined);
    // Signed for this scope, but presented as the first scope: the first scope's cached key does not match.
    assert.is(verifySignature(other.request, { ...other.signature, scope: a.signature.scope, region: 'us-east-1', service: 'dynamodb' }, 'secret-a', now.getTime()), 'mismatch');
  }
  const tomorrow = new Date(now.getTime() + 86_400_000);
  const later = signed('secret-a', 'us-east-1', 'dynamodb', tomorrow);
  assert.is(verifySignature(later.request, later.signature, 'secret-a', tomorrow.getTime()), undefined);
});

cache('past 64 scopes the oldest keys are dropped and derived again when needed', () => {
  const now = new Date();
  const first = signed('secret-many', 'region-0', 'dynamodb', now);
  for (let i = 0; i < 70; i++) {
    const one = signed('secret-many', `region-${i}`, 'dynamodb', now);
    assert.is(verifySignature(one.request, one.signature, 'secret-many', now.getTime()), undefined);
  }
  assert.is(verifySignature(first.request, first.signature, 'secret-many', now.getTime()), undefined);
});

cache.run();
