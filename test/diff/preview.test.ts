import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compareTemplates, exitCodeOf, formatPreview } from '../../src/deploy/preview';
import type { Template } from '../../src/synth/template';

const template = (resources: Template['Resources']) => ({ AWSTemplateFormatVersion: '2010-09-09', Description: 'x', Resources: resources }) as Template;

const preview = suite('preview of a deploy');

preview("compares a nested stack's templates: added, removed, and modified with replacement where it is known", () => {
  const before = template({
    Fn: { Type: 'AWS::Lambda::Function', Properties: { MemorySize: 1024, FunctionName: 'a' } },
    Bucket: { Type: 'AWS::S3::Bucket', Properties: { BucketName: 'one' } },
    Custom: { Type: 'Custom::Thing', Properties: { Size: 1 } },
    Old: { Type: 'AWS::Logs::LogGroup', Properties: {} },
  });
  const after = template({
    Fn: { Type: 'AWS::Lambda::Function', Properties: { MemorySize: 512, FunctionName: 'a' } },
    Bucket: { Type: 'AWS::S3::Bucket', Properties: { BucketName: 'two' } },
    Custom: { Type: 'Custom::Thing', Properties: { Size: 2 } },
    New: { Type: 'AWS::Logs::LogGroup', Properties: {} },
  });
  assert.equal(compareTemplates(before, after, 'NestedStack1'), [
    { action: 'Modify', logicalId: 'Fn', type: 'AWS::Lambda::Function', properties: ['MemorySize'], replacement: 'False', nestedStack: 'NestedStack1' },
    { action: 'Modify', logicalId: 'Bucket', type: 'AWS::S3::Bucket', properties: ['BucketName'], replacement: 'True', nestedStack: 'NestedStack1' },
    { action: 'Modify', logicalId: 'Custom', type: 'Custom::Thing', properties: ['Size'], replacement: 'Conditional', nestedStack: 'NestedStack1' },
    { action: 'Add', logicalId: 'New', type: 'AWS::Logs::LogGroup', properties: [], nestedStack: 'NestedStack1' },
    { action: 'Remove', logicalId: 'Old', type: 'AWS::Logs::LogGroup', properties: [], nestedStack: 'NestedStack1' },
  ]);
});

preview('prints additions, changes and removals, then counts them; exit code 2', () => {
  const result = {
    stackName: 'app-dev',
    stackExists: true,
    changes: [
      { action: 'Remove' as const, logicalId: 'OldFnLambdaFunction', type: 'AWS::Lambda::Function', properties: [] },
      { action: 'Modify' as const, logicalId: 'Bucket', type: 'AWS::S3::Bucket', properties: ['BucketName'], replacement: 'True' as const },
      { action: 'Modify' as const, logicalId: 'HelloLambdaFunction', type: 'AWS::Lambda::Function', properties: ['MemorySize', 'Timeout'], replacement: 'False' as const },
      { action: 'Add' as const, logicalId: 'NewFnLambdaFunction', type: 'AWS::Lambda::Function', properties: [], nestedStack: 'NestedStack2' },
    ],
  };
  assert.is(
    formatPreview(result),
    [
      'Changes to stack app-dev:',
      '+ NewFnLambdaFunction (AWS::Lambda::Function) in NestedStack2',
      '~ Bucket (AWS::S3::Bucket): BucketName (replacement)',
      '~ HelloLambdaFunction (AWS::Lambda::Function): MemorySize, Timeout',
      '- OldFnLambdaFunction (AWS::Lambda::Function)',
      '1 to add, 2 to change, 1 to remove',
      '',
    ].join('\n'),
  );
  assert.is(exitCodeOf(result), 2);
});

preview('says so when nothing would change; exit code 0', () => {
  const result = { stackName: 'app-dev', stackExists: true, changes: [] };
  assert.is(formatPreview(result), 'No changes: deploying would leave stack app-dev as it is.\n');
  assert.is(exitCodeOf(result), 0);
});

preview.run();
