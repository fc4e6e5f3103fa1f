import type { Template } from '../../../src/synth/template';

// The same helpers as group A's, under the names group B's tests use.
export { roleStatements as eventStatements, configErrorOf as errorOf, arnOf as functionArn } from './group-a-helpers';

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

