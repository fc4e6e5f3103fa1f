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
    const { removeService } = require('../deploy/remove') as typeof import('../deploy/remove');
    const { describeAwsError } = require('../deploy/aws') as typeof import('../deploy/aws');
    // Plugin hooks (issue 9): `initialize`, then `remove:remove` around the removal.
    const { loadPlugins, loadServiceWithPlugins, initialize } = require('../plugins') as typeof import('../plugins');
    const plugins = await loadPlugins({ cwd: process.cwd(), options: this.cliOptions() });
    const loaded = await loadServiceWithPlugins(plugins, process.cwd(), this.cliOptions());
    const connection = await this.connect(loaded);
    plugins.awsTarget = async () => connection.clients.target;
    plugins.write = text => this.context.stdout.write(text);
    const reporter = this.reporter();
    try {
      await initialize(plugins, loaded);
      await plugins.run('remove:remove', () =>
        removeService(loaded, connection.clients, reporter).catch(error => {
          throw describeAwsError(error, `removing ${loaded.stackName}`, connection.clients.target);
        }),
      );
      reporter.done();
      this.context.stdout.write(`${this.out.green('✔')} Service ${loaded.serviceName} (stage ${loaded.stage}) removed\n`);
      return 0;
    } finally {
      reporter.done();
      await connection.close();
    }
  }
}
