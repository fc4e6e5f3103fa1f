import * as assert from 'uvu/assert';
import { ConfigError } from '../../../src/errors';
import type { Template } from '../../../src/synth/template';

/** The statements events added to `IamRoleLambdaExecution` (after the two log statements). */
export const eventStatements = (t: Template): unknown[] =>
  ((t.Resources.IamRoleLambdaExecution.Properties as any).Policies[0].PolicyDocument.Statement as unknown[]).slice(2);

/** The message of the ConfigError `run` throws. */
export function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.instance(error, ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

export const properties = (t: Template, logicalId: string) => t.Resources[logicalId]?.Properties as Record<string, unknown>;

export const vpcStatement = {
  Effect: 'Allow',
  Action: [
    'ec2:CreateNetworkInterface',
    'ec2:DescribeNetworkInterfaces',
    'ec2:DescribeVpcs',
    'ec2:DeleteNetworkInterface',
    'ec2:DescribeSubnets',
    'ec2:DescribeSecurityGroups',
  ],
  Resource: '*',
};

export const functionArn = (resource: string) => ({ 'Fn::GetAtt': [`${resource}LambdaFunction`, 'Arn'] });
