import * as assert from 'uvu/assert';
import { ConfigError } from '../../../src/errors';
import type { Template } from '../../../src/synth/template';
import type { synth } from '../../helpers/synth';

type SynthConfig = Parameters<typeof synth>[0];

/** The statements events added to `IamRoleLambdaExecution` (after the two log statements). */
export const roleStatements = (t: Template): unknown[] =>
  ((t.Resources.IamRoleLambdaExecution.Properties as any).Policies[0].PolicyDocument.Statement as unknown[]).slice(2);

/** The message of the ConfigError `run` throws. */
export function configErrorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.instance(error, ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

export const arnOf = (fn: string) => ({ 'Fn::GetAtt': [`${fn}LambdaFunction`, 'Arn'] });

/** A function `key` with these events, handler `h.main`. */
export const withEvents = (key: string, events: unknown[]): SynthConfig => ({ functions: { [key]: { handler: 'h.main', events } } }) as SynthConfig;

export const properties = (t: Template, logicalId: string) => t.Resources[logicalId]?.Properties as Record<string, unknown>;

/** The statement a broker event adds so Lambda can reach the broker inside its VPC. */
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
