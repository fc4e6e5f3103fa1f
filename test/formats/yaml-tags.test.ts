import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseYaml } from '../../src/formats/yaml';
import { ConfigError } from '../../src/errors';

const tags = suite('CloudFormation short tags in YAML');

tags('turns every short form into its long form', () => {
  const parsed = parseYaml(
    [
      'a: !Ref Bucket',
      'b: !GetAtt Fn.Arn',
      'c: !GetAtt [Fn, Arn]',
      'd: !Sub "${AWS::StackName}-x"',
      'e: !Join ["-", [a, !Ref B]]',
      'f: !If [IsDev, 1, 2]',
      'g: !Select [0, !GetAZs ""]',
      'h: !Split [",", "a,b"]',
      'i: !FindInMap [M, k, v]',
      'j: !ImportValue shared',
      'k: !Base64 text',
      'l: !Equals [a, b]',
      'm: !Not [!Condition C]',
      'n: !And [!Condition A, !Condition B]',
      'o: !Or [!Condition A, !Condition B]',
      'p: !Cidr [!GetAtt Vpc.CidrBlock, 4, 8]',
      'q: !GetAtt Table.StreamArn.Extra',
    ].join('\n'),
    'fw.yml',
  );
  assert.equal(parsed, {
    a: { Ref: 'Bucket' },
    b: { 'Fn::GetAtt': ['Fn', 'Arn'] },
    c: { 'Fn::GetAtt': ['Fn', 'Arn'] },
    d: { 'Fn::Sub': '${AWS::StackName}-x' },
    e: { 'Fn::Join': ['-', ['a', { Ref: 'B' }]] },
    f: { 'Fn::If': ['IsDev', 1, 2] },
    g: { 'Fn::Select': [0, { 'Fn::GetAZs': '' }] },
    h: { 'Fn::Split': [',', 'a,b'] },
    i: { 'Fn::FindInMap': ['M', 'k', 'v'] },
    j: { 'Fn::ImportValue': 'shared' },
    k: { 'Fn::Base64': 'text' },
    l: { 'Fn::Equals': ['a', 'b'] },
    m: { 'Fn::Not': [{ Condition: 'C' }] },
    n: { 'Fn::And': [{ Condition: 'A' }, { Condition: 'B' }] },
    o: { 'Fn::Or': [{ Condition: 'A' }, { Condition: 'B' }] },
    p: { 'Fn::Cidr': [{ 'Fn::GetAtt': ['Vpc', 'CidrBlock'] }, 4, 8] },
    q: { 'Fn::GetAtt': ['Table', 'StreamArn.Extra'] },
  });
});

tags('a syntax error names the file, line and column', () => {
  try {
    parseYaml('service: app\nprovider:\n  name: aws\n bad: [\n', 'fw.yml');
    assert.unreachable('expected a parse error');
  } catch (error) {
    assert.instance(error, ConfigError);
    assert.match((error as Error).message, /^Cannot parse fw\.yml:\d+:\d+: /);
  }
});

tags('a key given twice in one mapping is an error naming where', () => {
  try {
    parseYaml('service: a\nprovider:\n  name: aws\n  name: other\n', 'fw.yml');
    assert.unreachable('expected a duplicate-key error');
  } catch (error) {
    assert.instance(error, ConfigError);
    assert.is(
      (error as Error).message,
      'Cannot parse fw.yml:4:3: duplicated mapping key "name" (first set on line 3): a key may appear once in a mapping\n  2 | provider:\n  3 |   name: aws\n> 4 |   name: other\n    |   ^',
    );
  }
});

tags('merge keys still merge', () => {
  assert.equal(parseYaml('base: &base { memorySize: 128 }\nfn:\n  <<: *base\n  timeout: 3\n', 'fw.yml'), {
    base: { memorySize: 128 },
    fn: { memorySize: 128, timeout: 3 },
  });
});

tags.run();
