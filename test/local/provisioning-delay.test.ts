import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient, CreateStackCommand, DeleteStackCommand, DescribeStackEventsCommand, type StackEvent } from '@aws-sdk/client-cloudformation';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';
import { provisioningDelayFrom } from '../../src/local/cloudformation/provisioning-clock';
import { provisioningSeconds } from '../../src/local/cloudformation/provisioning-times';
import { LOCAL_CREDENTIALS } from '../helpers/local-cloud';
import { settle } from './helpers';

/** 0.2 × an SQS queue's 1 s: each queue takes 200 ms. */
const SCALE = 0.2;
const STEP = provisioningSeconds('AWS::SQS::Queue') * 1000 * SCALE;
/** How late a step may end on a loaded machine (the waits are deadlines, so never early). */
const SLACK = 150;

/** A and B independent; C waits for A. */
const TEMPLATE = JSON.stringify({
  Resources: {
    A: { Type: 'AWS::SQS::Queue' },
    B: { Type: 'AWS::SQS::Queue' },
    C: { Type: 'AWS::SQS::Queue', DependsOn: 'A' },
  },
});

interface Context {
  dataDir: string;
  cloud: RunningLocalCloud;
  cfn: CloudFormationClient;
  stackId?: string;
}

/** Milliseconds from the stack's `<verb>_IN_PROGRESS` to each resource's `<verb>_COMPLETE`. */
async function completedAfter(cfn: CloudFormationClient, stack: string, verb: 'CREATE' | 'DELETE'): Promise<Record<string, number>> {
  const events: StackEvent[] = (await cfn.send(new DescribeStackEventsCommand({ StackName: stack }))).StackEvents ?? [];
  const start = events.find(event => event.LogicalResourceId === event.StackName && event.ResourceStatus === `${verb}_IN_PROGRESS`)!.Timestamp!.getTime();
  const ends = events.filter(event => event.LogicalResourceId !== event.StackName && event.ResourceStatus === `${verb}_COMPLETE`);
  return Object.fromEntries(ends.map(event => [event.LogicalResourceId!, event.Timestamp!.getTime() - start]).sort());
}

const within = (times: Record<string, number>, expected: Record<string, number>) =>
  Object.fromEntries(Object.entries(times).map(([id, ms]) => [id, ms >= expected[id] && ms <= expected[id] + SLACK ? 'on time' : `${ms} ms (expected ${expected[id]})`]));

const delay = suite<Context>('--provisioning-delay');

delay.before(async context => {
  context.dataDir = mkdtempSync(join(tmpdir(), 'fw-provisioning-'));
  context.cloud = await startLocalCloud({ port: 0, dataDir: context.dataDir, quiet: true, provisioningDelay: SCALE });
  context.cfn = new CloudFormationClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
});

delay.after(async context => {
  context.cfn.destroy();
  await context.cloud.stop();
  rmSync(context.dataDir, { recursive: true, force: true });
});

delay('each resource takes its scaled time; independent resources are provisioned side by side, as CloudFormation does', async context => {
  const { cfn } = context;
  context.stackId = (await cfn.send(new CreateStackCommand({ StackName: 'paced', TemplateBody: TEMPLATE }))).StackId;
  assert.is((await settle(cfn, 'paced')).StackStatus, 'CREATE_COMPLETE');
  const times = await completedAfter(cfn, 'paced', 'CREATE');
  // Side by side: A and B end after one step, C (after A) after two; one after another C would end after three.
  assert.equal(within(times, { A: STEP, B: STEP, C: 2 * STEP }), { A: 'on time', B: 'on time', C: 'on time' });
});

delay('a deletion waits for the resources that depend on one before deleting it', async ({ cfn, stackId }) => {
  await cfn.send(new DeleteStackCommand({ StackName: 'paced' }));
  const events = async () => (await cfn.send(new DescribeStackEventsCommand({ StackName: stackId }))).StackEvents ?? [];
  for (let i = 0; i < 200 && !(await events()).some(event => event.LogicalResourceId === 'paced' && event.ResourceStatus === 'DELETE_COMPLETE'); i++) {
    await new Promise(resolve => setTimeout(resolve, 20));
  }
  const times = await completedAfter(cfn, stackId!, 'DELETE');
  assert.equal(within(times, { A: 2 * STEP, B: STEP, C: STEP }), { A: 'on time', B: 'on time', C: 'on time' });
});

delay('a provisioning delay that is not a number of at least 0 is one line naming where it came from', () => {
  assert.equal([provisioningDelayFrom(undefined, '--provisioning-delay'), provisioningDelayFrom('0.05', '--provisioning-delay')], [0, 0.05]);
  assert.throws(
    () => provisioningDelayFrom('-1', '--provisioning-delay'),
    (error: Error) => error.message === 'Invalid --provisioning-delay: expected a fraction of the typical AWS time such as 0.05 (a number of at least 0), got "-1"',
  );
  assert.throws(
    () => provisioningDelayFrom('fast', '$FW_LOCAL_PROVISIONING_DELAY'),
    (error: Error) => error.message === 'Invalid $FW_LOCAL_PROVISIONING_DELAY: expected a fraction of the typical AWS time such as 0.05 (a number of at least 0), got "fast"',
  );
});

delay.run();
