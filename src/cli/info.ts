import { Option } from 'clipanion';
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

  conceal = Option.Boolean('--conceal', false, { description: 'Hide the values of stack outputs in what is printed' });

  async run(): Promise<number> {
    const { info } = require('../api/info') as typeof import('../api/info');
    const { formatSummary } = require('../deploy/summary') as typeof import('../deploy/summary');
    const deployed = await info(this.cloudRequest());
    const { concealed } = require('./deploy-v3-options') as typeof import('./deploy-v3-options');
    this.context.stdout.write(formatSummary(this.conceal ? concealed(deployed.summary) : deployed.summary, this.verbose));
    return 0;
  }
}
