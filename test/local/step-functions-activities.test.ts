import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import {
  CreateActivityCommand,
  DeleteActivityCommand,
  DescribeActivityCommand,
  DescribeExecutionCommand,
  GetActivityTaskCommand,
  GetExecutionHistoryCommand,
  ListActivitiesCommand,
  SendTaskFailureCommand,
  SendTaskSuccessCommand,
  SFNClient,
  StartExecutionCommand,
  type DescribeExecutionCommandOutput,
} from '@aws-sdk/client-sfn';
import { failure, settle, startTestCloud, type TestCloud } from './helpers';

const activities = suite<{ t: TestCloud; sfn: SFNClient }>('Step Functions activities: workers poll for tasks and answer them with the task token');

activities.before(async (context) => {
  context.t = await startTestCloud();
  context.sfn = new SFNClient({ ...context.t.config, maxAttempts: 1, requestHandler: { requestTimeout: 70_000 } });
});

activities.after(async ({ t, sfn }) => {
  sfn.destroy();
  await t.stop();
});

async function finished(sfn: SFNClient, executionArn: string): Promise<DescribeExecutionCommandOutput> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const described = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    if (described.status !== 'RUNNING' || Date.now() > deadline) return described;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

activities('a stack\'s activity: the execution waits for a worker, which answers with the token; a failure is caught by name', async ({ t, sfn }) => {
  const definition = {
    StartAt: 'Approve',
    States: {
      Approve: {
        Type: 'Task',
        Resource: '${Approval}',
        Parameters: { 'order.$': '$.order' },
        ResultPath: '$.approval',
        Catch: [{ ErrorEquals: ['Rejected'], ResultPath: '$.rejection', Next: 'Refused' }],
        End: true,
      },
      Refused: { Type: 'Pass', End: true },
    },
  };
  const template = {
    Resources: {
      Approval: { Type: 'AWS::StepFunctions::Activity', Properties: { Name: 'approval', Tags: [{ Key: 'team', Value: 'ops' }] } },
      Flow: {
        Type: 'AWS::StepFunctions::StateMachine',
        Properties: { StateMachineName: 'approvals', RoleArn: 'arn:aws:iam::000000000000:role/sfn', DefinitionString: JSON.stringify(definition), DefinitionSubstitutions: { Approval: { Ref: 'Approval' } } },
      },
    },
    Outputs: { ActivityName: { Value: { 'Fn::GetAtt': ['Approval', 'Name'] } } },
  };
  await t.cfn.send(new CreateStackCommand({ StackName: 'approvals', TemplateBody: JSON.stringify(template) }));
  const stack = await settle(t.cfn, 'approvals');
  assert.equal([stack.StackStatus, stack.Outputs![0].OutputValue], ['CREATE_COMPLETE', 'approval']);
  const activityArn = 'arn:aws:states:us-east-1:000000000000:activity:approval';
  assert.equal((await sfn.send(new ListActivitiesCommand({}))).activities!.map((activity) => activity.activityArn), [activityArn]);
  const stateMachineArn = 'arn:aws:states:us-east-1:000000000000:stateMachine:approvals';

  // The worker polls first and waits; the execution's task reaches it.
  const polled = sfn.send(new GetActivityTaskCommand({ activityArn, workerName: 'clerk-1' }));
  const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, name: 'first', input: JSON.stringify({ order: 'o-1' }) }));
  const task = await polled;
  assert.equal(JSON.parse(task.input!), { order: 'o-1' });
  await sfn.send(new SendTaskSuccessCommand({ taskToken: task.taskToken!, output: JSON.stringify({ approved: true }) }));
  const done = await finished(sfn, executionArn!);
  assert.equal([done.status, JSON.parse(done.output!)], ['SUCCEEDED', { order: 'o-1', approval: { approved: true } }]);
  const history = (await sfn.send(new GetExecutionHistoryCommand({ executionArn: executionArn! }))).events!;
  assert.equal(
    history.filter((event) => event.type!.startsWith('Activity')).map((event) => [event.type, event.activityScheduledEventDetails?.resource ?? event.activityStartedEventDetails?.workerName ?? event.activitySucceededEventDetails?.output]),
    [
      ['ActivityScheduled', activityArn],
      ['ActivityStarted', 'clerk-1'],
      ['ActivitySucceeded', '{"approved":true}'],
    ],
  );

  // The execution first: its task waits for the worker that polls later. The worker refuses it.
  const second = await sfn.send(new StartExecutionCommand({ stateMachineArn, name: 'second', input: JSON.stringify({ order: 'o-2' }) }));
  await new Promise((resolve) => setTimeout(resolve, 100));
  const queued = await sfn.send(new GetActivityTaskCommand({ activityArn, workerName: 'clerk-2' }));
  await sfn.send(new SendTaskFailureCommand({ taskToken: queued.taskToken!, error: 'Rejected', cause: 'over budget' }));
  const refused = await finished(sfn, second.executionArn!);
  assert.equal([refused.status, JSON.parse(refused.output!)], ['SUCCEEDED', { order: 'o-2', rejection: { Error: 'Rejected', Cause: 'over budget' } }]);
  const again = await failure(sfn.send(new SendTaskSuccessCommand({ taskToken: queued.taskToken!, output: '{}' })));
  assert.equal([again?.name, again?.message], ['TaskDoesNotExist', `Task Does Not Exist: '${queued.taskToken}'`]);
});

activities('CreateActivity, DescribeActivity, DeleteActivity; an unknown activity is ActivityDoesNotExist', async ({ sfn }) => {
  const created = await sfn.send(new CreateActivityCommand({ name: 'review' }));
  assert.is(created.activityArn, 'arn:aws:states:us-east-1:000000000000:activity:review');
  assert.is((await sfn.send(new CreateActivityCommand({ name: 'review' }))).activityArn, created.activityArn, 'the same name again answers the same activity');
  const described = await sfn.send(new DescribeActivityCommand({ activityArn: created.activityArn }));
  assert.equal([described.name, described.creationDate instanceof Date], ['review', true]);
  await sfn.send(new DeleteActivityCommand({ activityArn: created.activityArn }));
  const missing = await failure(sfn.send(new DescribeActivityCommand({ activityArn: created.activityArn })));
  assert.equal([missing?.name, missing?.message], ['ActivityDoesNotExist', `Activity Does Not Exist: '${created.activityArn}'`]);
  const badName = await failure(sfn.send(new CreateActivityCommand({ name: 'has space' })));
  assert.equal([badName?.name, badName?.message], ['InvalidName', "Invalid Name: 'has space'"]);
});

activities.run();
