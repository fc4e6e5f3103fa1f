import { CloudCommand } from './cloud-command';

export class RemoveCommand extends CloudCommand {
  static override paths = [['remove']];
  static override usage = CloudCommand.Usage({
    description: "Delete the service's stack and its objects in the deployment bucket (the service folder stays)",
    details: `
      Nested stacks of the service that an interrupted deploy left without a parent (named
      \`<stack>-…\`, with the stack as their root) are deleted too, also when the stack itself is gone.
    `,
    examples: [
      ['Remove the dev stage from the local cloud', '$0 remove --local'],
      ['Remove the prod stage from AWS', '$0 remove --stage prod --region eu-west-1'],
    ],
  });

  async run(): Promise<number> {
    const { remove } = require('../api/remove') as typeof import('../api/remove');
    const reporter = this.reporter();
    try {
      const removed = await remove({ ...this.cloudRequest(), reporter });
      reporter.done();
      this.context.stdout.write(`${this.out.green('✔')} Service ${removed.service} (stage ${removed.stage}) removed\n`);
      return 0;
    } finally {
      reporter.done();
    }
  }
}
