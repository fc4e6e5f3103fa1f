import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resolve, NO_VALUE, type ResolveContext } from '../../src/local/template/intrinsics';
import { creationOrder, dependencyGraph } from '../../src/local/template/graph';
import { parseTemplate } from '../../src/local/template/parse';
import { cronMatches, rateInterval } from '../../src/local/eventbridge/schedule';
import { matchPath, bestMatch } from '../../src/local/gateway/routes';
import { localizeEndpoints } from '../../src/local/gateway/endpoints';
import type { Template } from '../../src/local/template/types';

function context(overrides: Partial<ResolveContext> = {}): ResolveContext {
  const conditions: Record<string, boolean> = { Yes: true, No: false };
  return {
    pseudo: { 'AWS::Region': 'eu-west-1', 'AWS::AccountId': '000000000000', 'AWS::StackName': 's', 'AWS::Partition': 'aws', 'AWS::URLSuffix': 'amazonaws.com' },
    parameters: { Stage: 'dev', Names: ['a', 'b'] },
    mappings: { Map: { dev: { Size: 1 } } },
    condition: (name) => conditions[name],
    ref: (id) => `${id}-physical`,
    getAtt: (id, attribute) => `${id}.${attribute}`,
    importValue: (name) => `imported-${name}`,
    ...overrides,
  };
}

const intrinsics = suite('template intrinsics');

intrinsics('Fn::Sub resolves parameters, pseudo parameters, attributes, its own variables and ${!literals}', () => {
  assert.is(resolve({ 'Fn::Sub': '${AWS::StackName}-${Stage}-${Bucket}-${Bucket.Arn}-${!Keep}' }, context()), 's-dev-Bucket-physical-Bucket.Arn-${Keep}');
  assert.is(resolve({ 'Fn::Sub': ['${Greeting}, ${Stage}', { Greeting: { 'Fn::Join': ['', ['he', 'llo']] } }] }, context()), 'hello, dev');
  assert.is(resolve({ 'Fn::Sub': '${Names}' }, context()), 'a,b');
});

intrinsics('conditions, If with AWS::NoValue, and the boolean functions', () => {
  const value = resolve({ A: { 'Fn::If': ['Yes', 1, 2] }, B: { 'Fn::If': ['No', 1, { Ref: 'AWS::NoValue' }] }, C: [{ 'Fn::If': ['No', 'x', { Ref: 'AWS::NoValue' }] }, 'y'] }, context());
  assert.equal(value, { A: 1, C: ['y'] });
  assert.is(resolve({ 'Fn::And': [{ Condition: 'Yes' }, { 'Fn::Not': [{ Condition: 'No' }] }] }, context()), true);
  assert.is(resolve({ 'Fn::Or': [{ Condition: 'No' }, { 'Fn::Equals': [{ Ref: 'Stage' }, 'dev'] }] }, context()), true);
  assert.is(resolve({ 'Fn::Equals': [1, '1'] }, context()), true);
  assert.is(resolve({ Ref: 'AWS::NoValue' }, context()), NO_VALUE);
});

intrinsics('Select, Split, Join, FindInMap, ImportValue, Base64, GetAZs and GetAtt short form', () => {
  assert.is(resolve({ 'Fn::Select': ['1', { 'Fn::Split': ['|', 'a|b|c'] }] }, context()), 'b');
  assert.is(resolve({ 'Fn::Join': [':', { Ref: 'Names' }] }, context()), 'a:b');
  assert.is(resolve({ 'Fn::FindInMap': ['Map', { Ref: 'Stage' }, 'Size'] }, context()), 1);
  assert.is(resolve({ 'Fn::ImportValue': { 'Fn::Sub': '${Stage}-out' } }, context()), 'imported-dev-out');
  assert.is(resolve({ 'Fn::Base64': 'abc' }, context()), 'YWJj');
  assert.equal(resolve({ 'Fn::GetAZs': { Ref: 'AWS::Region' } }, context()), ['eu-west-1a', 'eu-west-1b', 'eu-west-1c']);
  assert.is(resolve({ 'Fn::GetAtt': 'Role.Arn' }, context()), 'Role.Arn');
  assert.throws(() => resolve({ 'Fn::FindInMap': ['Map', 'prod', 'Size'] }, context()), /Unable to get mapping for Map::prod::Size/);
  assert.throws(() => resolve({ 'Fn::Nope': 1 }, context()), /Unrecognized function Fn::Nope/);
});

intrinsics.run();

const graph = suite('template dependency order');

graph('orders resources after what they Ref, GetAtt, Sub and DependsOn', () => {
  const template: Template = {
    Resources: {
      Route: { Type: 'X', Properties: { Target: { 'Fn::Sub': 'integrations/${Integration}' } } },
      Integration: { Type: 'X', Properties: { Uri: { 'Fn::GetAtt': ['Fn', 'Arn'] } } },
      Fn: { Type: 'X', DependsOn: ['Logs'], Properties: { Role: { Ref: 'Role' } } },
      Role: { Type: 'X' },
      Logs: { Type: 'X' },
    },
  };
  assert.equal(creationOrder(dependencyGraph(template)), ['Role', 'Logs', 'Fn', 'Integration', 'Route']);
});

graph('rejects a cycle, a self reference and an unknown name with CloudFormation messages', () => {
  assert.throws(() => creationOrder(dependencyGraph({ Resources: { A: { Type: 'X', Properties: { B: { Ref: 'A' } } } } })), /Circular dependency between resources: \[A\]/);
  assert.throws(() => dependencyGraph({ Resources: { A: { Type: 'X', DependsOn: 'Ghost' } } }), /Unresolved resource dependencies \[Ghost\] in the Resources block/);
  assert.throws(() => dependencyGraph({ Resources: { A: { Type: 'X' } }, Outputs: { O: { Value: { Ref: 'Ghost' } } } }), /Unresolved resource dependencies \[Ghost\] in the Outputs block/);
});

graph('parses YAML templates with short-form tags', () => {
  const template = parseTemplate('Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: !Sub "${AWS::StackName}-b"\n      Tags:\n        - Key: arn\n          Value: !GetAtt Role.Arn\n');
  assert.equal(template.Resources.Bucket.Properties, { BucketName: { 'Fn::Sub': '${AWS::StackName}-b' }, Tags: [{ Key: 'arn', Value: { 'Fn::GetAtt': ['Role', 'Arn'] } }] });
  assert.throws(() => parseTemplate('Resources: [\n'), /Template format error: YAML not well-formed/);
});

graph.run();

const routing = suite('gateway routes, schedules and endpoints');

routing('matches path templates, preferring literal segments and exact methods', () => {
  assert.equal(matchPath('/users/{id}', '/users/42'), { parameters: { id: '42' }, score: 14 });
  assert.equal(matchPath('/files/{proxy+}', '/files/a/b%20c')?.parameters, { proxy: 'a/b c' });
  assert.is(matchPath('/users/{id}', '/users'), undefined);
  const routes = [
    { method: 'ANY', path: '/{proxy+}' },
    { method: 'GET', path: '/users/{id}' },
    { method: 'GET', path: '/users/me' },
    { method: 'ANY', path: '/users/me' },
  ];
  assert.equal(bestMatch(routes, 'GET', '/users/me')?.item, { method: 'GET', path: '/users/me' });
  assert.equal(bestMatch(routes, 'POST', '/users/me')?.item, { method: 'ANY', path: '/users/me' });
  assert.equal(bestMatch(routes, 'GET', '/users/7')?.item, { method: 'GET', path: '/users/{id}' });
  assert.equal(bestMatch(routes, 'DELETE', '/x/y')?.parameters, { proxy: 'x/y' });
});

routing('reads rate and cron schedule expressions', () => {
  assert.is(rateInterval('rate(1 minute)'), 60_000);
  assert.is(rateInterval('rate(2 hours)'), 7_200_000);
  assert.is(rateInterval('cron(0 * * * ? *)'), undefined);
  const monday0930 = new Date('2026-11-23T09:30:00Z');
  assert.ok(cronMatches('cron(30 9 ? * MON-FRI *)', monday0930));
  assert.ok(cronMatches('cron(0/15 * * * ? *)', monday0930));
  assert.not.ok(cronMatches('cron(0/20 * * * ? *)', monday0930));
  assert.not.ok(cronMatches('cron(30 9 ? * SAT,SUN *)', monday0930));
  assert.ok(cronMatches('cron(30 9 23 NOV ? 2026)', monday0930));
});

routing('rewrites AWS endpoint URLs to the local server', () => {
  const base = 'http://127.0.0.1:4566';
  assert.is(localizeEndpoints('https://abc123defg.execute-api.us-east-1.amazonaws.com/dev', base), `${base}/_fw/execute-api/abc123defg/dev`);
  assert.is(localizeEndpoints('https://xyz.lambda-url.eu-west-1.on.aws/', base), `${base}/_fw/lambda-url/xyz/`);
  assert.is(localizeEndpoints('arn:aws:s3:::bucket', base), 'arn:aws:s3:::bucket');
});

routing.run();
