import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../src/errors';
import { errorOf, resolve } from './helpers';

const rules = suite('resolveVariables: rules');

rules('a whole-value variable keeps its type', async () => {
  const config = await resolve({ custom: { n: 3, list: [1, 2], obj: { a: true } }, a: '${self:custom.n}', b: '${self:custom.list}', c: '${self:custom.obj}' });
  assert.equal([config.a, config.b, config.c], [3, [1, 2], { a: true }]);
});

rules('variables inside a string are joined as text', async () => {
  const config = await resolve({ service: 'app', custom: { n: 3, yes: true }, name: '${self:service}-${self:custom.n}-${self:custom.yes}' });
  assert.is(config.name, 'app-3-true');
});

rules('a variable inside a string must resolve to a scalar', async () => {
  const message = await errorOf(() => resolve({ custom: { obj: { a: 1 } }, name: 'x-${self:custom.obj}' }));
  assert.is(message, 'Cannot resolve variable at "name": ${self:custom.obj} resolves to an object, but a variable inside a string must resolve to a string, number or boolean');
});

rules('fallbacks may be literals of every kind', async () => {
  const config = await resolve({
    a: "${opt:x, 'dev'}", b: '${opt:x, "quoted, with comma"}', c: '${opt:x, 1024}', d: '${opt:x, false}', e: '${opt:x, null}', f: '${opt:x, -1.5}',
  });
  assert.equal(config, { a: 'dev', b: 'quoted, with comma', c: 1024, d: false, e: null, f: -1.5 });
});

rules('fallbacks may be other variables, tried in order', async () => {
  const config = await resolve(
    { provider: { stage: 'qa' }, a: "${opt:stage, self:provider.stage, 'dev'}", b: "${opt:nope, env:NOPE, env:HOME_X, 'last'}", c: '${opt:nope, ${env:HOME_X}}' },
    { env: { HOME_X: '/home' } },
  );
  assert.equal([config.a, config.b, config.c], ['qa', '/home', '/home']);
});

rules('variables nest inside addresses', async () => {
  const config = await resolve({ custom: { dev: 'table-dev', prod: 'table-prod' }, table: '${self:custom.${sls:stage}}' }, { options: { stage: 'prod' } });
  assert.is(config.table, 'table-prod');
});

rules('\\${…} escapes a variable', async () => {
  const config = await resolve({ service: 'app', a: 'x\\${self:service}', b: '${self:a}' });
  assert.equal([config.a, config.b], ['x${self:service}', 'x${self:service}']);
});

rules("CloudFormation's own ${…} in Fn::Sub stays as written", async () => {
  const sub = { 'Fn::Sub': 'arn:aws:s3:::${AWS::Region}-${Bucket}/${Bucket.Arn}' };
  const config = await resolve({ resources: { Resources: { R: { Properties: { Name: sub } } } } });
  assert.equal(config, { resources: { Resources: { R: { Properties: { Name: sub } } } } });
});

rules('variables resolve everywhere, including resources and lists', async () => {
  const config = await resolve({ service: 'app', resources: { Resources: { T: { Properties: { TableName: '${self:service}-t', Tags: [{ Value: '${self:service}' }] } } } } });
  assert.equal(config.resources, { Resources: { T: { Properties: { TableName: 'app-t', Tags: [{ Value: 'app' }] } } } });
});

rules('a value that resolves to another variable is resolved too', async () => {
  const config = await resolve({ service: 'app', a: '${env:INDIRECT}' }, { env: { INDIRECT: '${self:service}' } });
  assert.is(config.a, 'app');
});

rules('an unresolved variable names the config path and the variable', async () => {
  const message = await errorOf(() => resolve({ provider: { environment: { TABLE: '${env:TABLE}' } } }));
  assert.is(message, 'Cannot resolve variable at "provider.environment.TABLE": ${env:TABLE} is not set and has no fallback');
});

rules('when every fallback is missing, each one is named', async () => {
  const message = await errorOf(() => resolve({ a: '${opt:x, env:Y}' }));
  assert.is(message, 'Cannot resolve variable at "a": ${opt:x, env:Y} has no value (opt:x is not set (no --x option given); env:Y is not set)');
});

rules('every unresolved variable is reported at once', async () => {
  const message = await errorOf(() => resolve({ a: '${env:A}', b: { c: ['${env:B}'] } }));
  assert.is(message, [
    'Cannot resolve 2 variables:',
    '  - Cannot resolve variable at "a": ${env:A} is not set and has no fallback',
    '  - Cannot resolve variable at "b.c[0]": ${env:B} is not set and has no fallback',
  ].join('\n'));
});

rules('errors are ConfigErrors (message only, no stack)', async () => {
  try {
    await resolve({ a: '${env:A}' });
    assert.unreachable();
  } catch (error) {
    assert.instance(error, ConfigError);
  }
});

rules('a cycle names every property on it', async () => {
  const message = await errorOf(() => resolve({ custom: { a: '${self:custom.b}', b: '${self:custom.c}', c: '${self:custom.a}' } }));
  assert.is(message, 'Cannot resolve variable at "custom.a": circular reference "custom.a" → "custom.b" → "custom.c" → "custom.a"');
});

rules('depth is bounded', async () => {
  const env: Record<string, string> = {};
  for (let i = 0; i < 20; i += 1) env[`V${i}`] = `\${env:V${i + 1}}`;
  const message = await errorOf(() => resolve({ a: '${env:V0}' }, { env }));
  assert.match(message, /^Cannot resolve variable at "a": .* resolves through more than 10 levels of variables$/);
});

rules('a bare word is not a fallback', async () => {
  const message = await errorOf(() => resolve({ a: '${opt:x, bare}' }));
  assert.is(message, "Cannot resolve variable at \"a\": ${opt:x, bare} has an invalid fallback \"bare\" (expected a variable like self:custom.x, a number, true, false, null or a quoted string like 'text')");
});

rules('an unknown source is named', async () => {
  const message = await errorOf(() => resolve({ a: '${foo:bar}' }));
  assert.match(message, /^Cannot resolve variable at "a": \$\{foo:bar\} uses an unknown source "foo" \(known: self, opt, env/);
});

rules('the raw configuration is not changed', async () => {
  const raw = { service: 'app', a: '${self:service}' };
  await resolve(raw);
  assert.equal(raw, { service: 'app', a: '${self:service}' });
});

rules.run();
