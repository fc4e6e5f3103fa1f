import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { errorOf, resolve } from './helpers';

const file = suite('source file()');

file('reads a whole YAML file or one address in it', async () => {
  const files = { 'config/custom.yml': 'schedule: rate(10 minutes)\nnested:\n  list: [1, 2]\nref: !Ref Bucket\n' };
  const config = await resolve({ custom: '${file(./config/custom.yml)}', s: '${file(./config/custom.yml):nested.list}' }, { files });
  assert.equal(config.custom, { schedule: 'rate(10 minutes)', nested: { list: [1, 2] }, ref: { Ref: 'Bucket' } });
  assert.equal(config.s, [1, 2]);
});

file('reads JSON', async () => {
  const config = await resolve({ a: '${file(./c.json):CREDS}' }, { files: { 'c.json': '{"CREDS": {"user": "u"}}' } });
  assert.equal(config.a, { user: 'u' });
});

file('the path may hold variables', async () => {
  const files = { 'config.qa.json': '{"CREDS": "qa-creds"}' };
  const config = await resolve({ a: "${file(./config.${opt:stage, 'dev'}.json):CREDS}" }, { files, options: { stage: 'qa' } });
  assert.is(config.a, 'qa-creds');
});

file('variables inside the file resolve against the service file', async () => {
  const config = await resolve({ service: 'app', custom: '${file(./c.yml)}' }, { files: { 'c.yml': 'name: ${self:service}-x\n' } });
  assert.equal(config.custom, { name: 'app-x' });
});

file('a JS module exporting values, functions of values, or one resolver function', async () => {
  const files = {
    'values.js': "module.exports = { rate: 'rate(1 minute)', called: () => 'called', later: async () => 7 };",
    'resolver.js': "module.exports = async ({ options, resolveVariable, resolveConfigurationProperty }) => ({ stage: await resolveVariable('sls:stage'), service: await resolveConfigurationProperty(['service']), opt: options.stage });",
    'esm.mjs': "export default { esm: true };",
  };
  const config = await resolve(
    { service: 'app', a: '${file(./values.js):rate}', b: '${file(./values.js):called}', c: '${file(./values.js):later}', d: '${file(./resolver.js)}', e: '${file(./esm.mjs):esm}' },
    { files, options: { stage: 'qa' } },
  );
  assert.equal([config.a, config.b, config.c, config.d, config.e], ['rate(1 minute)', 'called', 7, { stage: 'qa', service: 'app', opt: 'qa' }, true]);
});

file('a missing file or address takes the fallback', async () => {
  const config = await resolve({ a: "${file(./nope.yml), 'nofile'}", b: "${file(./c.yml):nope, 'noaddr'}" }, { files: { 'c.yml': 'x: 1\n' } });
  assert.equal([config.a, config.b], ['nofile', 'noaddr']);
});

file('a missing file without fallback names the file', async () => {
  assert.is(await errorOf(() => resolve({ a: '${file(./nope.yml)}' })), 'Cannot resolve variable at "a": ${file(./nope.yml)} points to a file that does not exist (nope.yml) and has no fallback');
});

file('a YAML error in the file names file, line and column', async () => {
  const message = await errorOf(() => resolve({ a: '${file(./bad.yml)}' }, { files: { 'bad.yml': 'a: 1\nb: [\n' } }));
  assert.match(message, /^Cannot resolve variable at "a": \$\{file\(\.\/bad\.yml\)\}: Cannot parse bad\.yml:\d+:\d+: /);
});

file('a file that includes itself stops at the depth bound', async () => {
  const message = await errorOf(() => resolve({ a: '${file(./loop.yml)}' }, { files: { 'loop.yml': 'again: ${file(./loop.yml)}\n' } }));
  assert.match(message, /resolves through more than 10 levels of variables$/);
});

file.run();
