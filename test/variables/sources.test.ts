import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { errorOf, resolve } from './helpers';

const self = suite('source self:');
self('reads any path, resolving what it points at first', async () => {
  const config = await resolve({ service: 'app', custom: { name: '${self:service}', exportName: '${self:custom.name}-export' }, out: '${self:custom.exportName}' });
  assert.is(config.out, 'app-export');
});
self('reads list items by index', async () => {
  const config = await resolve({ custom: { list: ['a', 'b'] }, x: '${self:custom.list.1}' });
  assert.is(config.x, 'b');
});
self('reads through a value that came from a file', async () => {
  const config = await resolve({ custom: '${file(./custom.yml)}', x: '${self:custom.deep.value}' }, { files: { 'custom.yml': 'deep:\n  value: 42\n' } });
  assert.is(config.x, 42);
});
self('a null property has no value', async () => {
  const config = await resolve({ custom: { nul: null }, a: "${self:custom.nul, 'fb'}" });
  assert.is(config.a, 'fb');
});
self('a missing path is an error without a fallback', async () => {
  assert.is(await errorOf(() => resolve({ a: '${self:custom.nope}' })), 'Cannot resolve variable at "a": ${self:custom.nope} points to nothing in the service file and has no fallback');
});
self.run();

const opt = suite('source opt:');
opt('reads a CLI option, with a fallback when absent', async () => {
  const config = await resolve({ a: '${opt:stage}', b: '${opt:memory, 1024}' }, { options: { stage: 'prod' } });
  assert.equal([config.a, config.b], ['prod', 1024]);
});
opt('${opt:} is every option', async () => {
  const config = await resolve({ a: '${opt:}' }, { options: { stage: 'prod', region: 'eu-west-1' } });
  assert.equal(config.a, { stage: 'prod', region: 'eu-west-1' });
});
opt('a missing option without fallback says which flag', async () => {
  assert.is(await errorOf(() => resolve({ a: '${opt:memory}' })), 'Cannot resolve variable at "a": ${opt:memory} is not set (no --memory option given) and has no fallback');
});
opt.run();

const env = suite('source env:');
env('reads an environment variable, empty included', async () => {
  const config = await resolve({ a: '${env:TABLE}', b: "${env:EMPTY, 'x'}", c: "${env:NOPE, 'fb'}" }, { env: { TABLE: 'users', EMPTY: '' } });
  assert.equal([config.a, config.b, config.c], ['users', '', 'fb']);
});
env('nests: the name may come from another variable', async () => {
  const config = await resolve({ a: '${env:${opt:stage}_arn}' }, { env: { prod_arn: 'arn:1' }, options: { stage: 'prod' } });
  assert.is(config.a, 'arn:1');
});
env.run();

const sls = suite('source sls:');
sls('stage is --stage, then provider.stage, then dev', async () => {
  assert.is((await resolve({ a: '${sls:stage}' }, { options: { stage: 'prod' } })).a, 'prod');
  assert.is((await resolve({ provider: { stage: 'qa' }, a: '${sls:stage}' })).a, 'qa');
  assert.is((await resolve({ a: '${sls:stage}' })).a, 'dev');
});
sls('provider.stage may itself be a variable', async () => {
  assert.is((await resolve({ provider: { stage: "${env:STAGE, 'x'}" }, a: '${sls:stage}' }, { env: { STAGE: 'ci' } })).a, 'ci');
});
sls('instanceId is the one id of this run', async () => {
  const config = await resolve({ a: '${sls:instanceId}', b: 'D${sls:instanceId}' }, { instanceId: 'abc123' });
  assert.equal([config.a, config.b], ['abc123', 'Dabc123']);
});
sls('an unknown sls address is an error', async () => {
  assert.is(await errorOf(() => resolve({ a: '${sls:nope}' })), 'Cannot resolve variable at "a": ${sls:nope}: the sls source knows "stage" and "instanceId", not "nope"');
});
sls.run();

const awsRegion = suite('source aws:region');
awsRegion('is --region, then provider.region, then us-east-1', async () => {
  assert.is((await resolve({ a: '${aws:region}' }, { options: { region: 'eu-west-1' } })).a, 'eu-west-1');
  assert.is((await resolve({ provider: { region: 'ap-south-1' }, a: '${aws:region}' })).a, 'ap-south-1');
  assert.is((await resolve({ a: '${aws:region}' })).a, 'us-east-1');
});
awsRegion.run();

const strToBool = suite('source strToBool()');
strToBool('turns true/false/1/0 in any case into booleans', async () => {
  const config = await resolve({ a: '${strToBool(true)}', b: '${strToBool(FALSE)}', c: '${strToBool(1)}', d: '${strToBool(0)}', e: '${strToBool(${env:FLAG})}' }, { env: { FLAG: 'True' } });
  assert.equal(config, { a: true, b: false, c: true, d: false, e: true });
});
strToBool('anything else is an error', async () => {
  assert.is(await errorOf(() => resolve({ a: '${strToBool(2)}' })), 'Cannot resolve variable at "a": ${strToBool(2)}: strToBool expects "true", "false", "1" or "0", got "2"');
});
strToBool.run();

const param = suite('source param:');
param('--param wins, then params.<stage>, then params.default', async () => {
  const raw = { provider: { stage: 'qa' }, params: { default: { p1: 'd1', p2: 'd2', p4: 'd4' }, qa: { p1: 'q1' } }, a: '${param:p1}', b: '${param:p2}', c: '${param:p3}', d: '${param:p4}' };
  const config = await resolve(raw, { options: { param: ['p3=cli', 'p2=cli2=x'] } });
  assert.equal([config.a, config.b, config.c, config.d], ['q1', 'cli2=x', 'cli', 'd4']);
});
param('a missing parameter names where it was looked for', async () => {
  assert.is(await errorOf(() => resolve({ a: '${param:domain}' })), 'Cannot resolve variable at "a": ${param:domain} is not defined (no --param "domain=…", params.dev.domain or params.default.domain) and has no fallback');
});
param.run();
