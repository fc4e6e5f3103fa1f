import { CloudError } from '../errors';
import { CloudCommand } from './cloud-command';

export class InfoCommand extends CloudCommand {
  static override paths = [['info']];
  static override usage = CloudCommand.Usage({
    description: 'Show the deployed service as the stack holds it: status, region, endpoints and functions (stack outputs with --verbose)',
    examples: [
      ['Show the dev stage deployed in the local cloud', '$0 info --local'],
      ['Show the prod stage with every stack output', '$0 info --stage prod --verbose'],
    ],
  });

  async run(): Promise<number> {
    const { describeStack } = require('../deploy/stack') as typeof import('../deploy/stack');
    const { summarize, formatSummary } = require('../deploy/summary') as typeof import('../deploy/summary');
    const { describeAwsError } = require('../deploy/aws') as typeof import('../deploy/aws');
    const { deployedResources } = require('../deploy/deployed') as typeof import('../deploy/deployed');
    const loaded = await this.loadService();
    const connection = await this.connect(loaded);
    try {
      const stack = await describeStack(connection.clients, loaded.stackName).catch(error => {
        throw describeAwsError(error, `describing ${loaded.stackName}`, connection.clients.target);
      });
      if (!stack) throw new CloudError(`Stack ${loaded.stackName} does not exist in ${loaded.region}: the service is not deployed for stage ${loaded.stage}`);
      // What the stack holds, not what the service file says: a failed deploy leaves the previous template.
      const deployed = await deployedResources(connection.clients, loaded.stackName).catch(error => {
        throw describeAwsError(error, `describing ${loaded.stackName}`, connection.clients.target);
      });
      this.context.stdout.write(formatSummary(summarize(loaded, stack, deployed), this.verbose));
      return 0;
    } finally {
      await connection.close();
    }
  }
}
