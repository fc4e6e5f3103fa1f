import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DeleteStackCommand, DescribeStackEventsCommand, DescribeStacksCommand, ListStacksCommand, type StackSummary } from '@aws-sdk/client-cloudformation';
import type { AwsClients } from '../../src/aws/clients';
import type { Reporter } from '../../src/deploy/deploy';
import { removeOrphanedNestedStacks } from '../../src/deploy/remove';

const arn = (name: string, id: string) => `arn:aws:cloudformation:us-east-1:123456789012:stack/${name}/${id}`;

/**
 * CloudFormation as AWS answers after a crash: the root `app-dev` was deleted and recreated,
 * its old nested stacks live on. Another service's stack and its nested one share the prefix.
 */
class FakeCloudFormation {
  readonly deleted: string[] = [];
  readonly stacks: StackSummary[] = [
    { StackName: 'app-dev', StackId: arn('app-dev', 'new'), StackStatus: 'DELETE_COMPLETE', CreationTime: new Date() },
    { StackName: 'app-dev-NestedStack1-AAA', StackId: arn('app-dev-NestedStack1-AAA', '1'), ParentId: arn('app-dev', 'old'), RootId: arn('app-dev', 'old'), StackStatus: 'CREATE_COMPLETE', CreationTime: new Date() },
    { StackName: 'app-dev-NestedStack1-AAA-Inner-BBB', StackId: arn('app-dev-NestedStack1-AAA-Inner-BBB', '2'), ParentId: arn('app-dev-NestedStack1-AAA', '1'), RootId: arn('app-dev', 'old'), StackStatus: 'CREATE_COMPLETE', CreationTime: new Date() },
    { StackName: 'app-dev-tools-dev', StackId: arn('app-dev-tools-dev', '3'), StackStatus: 'UPDATE_COMPLETE', CreationTime: new Date() },
    { StackName: 'app-dev-tools-dev-NestedStack1-CCC', StackId: arn('app-dev-tools-dev-NestedStack1-CCC', '4'), ParentId: arn('app-dev-tools-dev', '3'), RootId: arn('app-dev-tools-dev', '3'), StackStatus: 'CREATE_COMPLETE', CreationTime: new Date() },
  ];

  async send(command: unknown): Promise<unknown> {
    if (command instanceof ListStacksCommand) {
      const wanted = new Set(command.input.StackStatusFilter);
      return { StackSummaries: this.stacks.filter((stack) => wanted.has(stack.StackStatus!)) };
    }
    if (command instanceof DeleteStackCommand) {
      this.deleted.push(command.input.StackName!);
      const gone = this.stacks.find((stack) => stack.StackId === command.input.StackName)!;
      for (const stack of this.stacks) if (stack === gone || stack.ParentId === gone.StackId) stack.StackStatus = 'DELETE_COMPLETE';
      return {};
    }
    if (command instanceof DescribeStackEventsCommand) return { StackEvents: [] };
    if (command instanceof DescribeStacksCommand) {
      const stack = this.stacks.find((candidate) => candidate.StackId === command.input.StackName)!;
      return { Stacks: [{ StackName: stack.StackName, StackId: stack.StackId, StackStatus: stack.StackStatus, CreationTime: stack.CreationTime }] };
    }
    throw new Error(`unexpected ${(command as object).constructor.name}`);
  }
}

const quietReporter = (lines: string[]): Reporter => ({ info: (line) => lines.push(line), progress: () => undefined, event: () => undefined });

const remove = suite('removing nested stacks a crash left without a parent');

remove('deletes the topmost orphans of the service and leaves another service sharing the prefix alone', async () => {
  const cloudFormation = new FakeCloudFormation();
  const clients = { target: { region: 'us-east-1' }, cloudFormation, s3: undefined } as unknown as AwsClients;
  const lines: string[] = [];
  const count = await removeOrphanedNestedStacks(clients, 'app-dev', quietReporter(lines));
  assert.is(count, 1);
  assert.equal(cloudFormation.deleted, [arn('app-dev-NestedStack1-AAA', '1')]);
  assert.equal(lines, ['Deleting nested stack app-dev-NestedStack1-AAA, left without its parent by an interrupted deploy']);
  assert.equal(
    cloudFormation.stacks.filter((stack) => stack.StackStatus !== 'DELETE_COMPLETE').map((stack) => stack.StackName),
    ['app-dev-tools-dev', 'app-dev-tools-dev-NestedStack1-CCC'],
  );
});

remove.run();
