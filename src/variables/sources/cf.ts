import { ConfigError } from '../../errors';
import type { Source } from '../source';
import { awsSourceClient, isNotFound } from './aws-client';

/** `${cf:stack.OutputKey}` and `${cf(eu-west-1):stack.OutputKey}`: an output of a deployed stack. */
export const cf: Source = async (ref, helpers) => {
  const { region } = helpers;
  const address = ref.address ?? '';
  const dot = address.indexOf('.');
  if (dot <= 0 || dot === address.length - 1) throw new ConfigError(`cf expects "stackName.OutputKey", got ${JSON.stringify(address)}`);
  const stackName = address.slice(0, dot);
  const outputKey = address.slice(dot + 1);
  const { CloudFormationClient, DescribeStacksCommand } = require('@aws-sdk/client-cloudformation') as typeof import('@aws-sdk/client-cloudformation');
  const client = await awsSourceClient(config => new CloudFormationClient(config), helpers, ref.params[0] ?? (await region()));
  try {
    const answer = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    const output = answer.Stacks?.[0]?.Outputs?.find((candidate) => candidate.OutputKey === outputKey);
    if (output?.OutputValue === undefined) return { missing: `has no value (stack ${stackName} has no output ${outputKey})` };
    return { value: output.OutputValue, secret: true };
  } catch (error) {
    if (isNotFound(error) || /does not exist/.test((error as Error).message)) return { missing: `has no value (stack ${stackName} does not exist)` };
    throw error;
  } finally {
    client.destroy();
  }
};
