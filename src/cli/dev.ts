import { Option } from 'clipanion';
import { reportError } from './base';
import { CloudCommand } from './cloud-command';

export class DevCommand extends CloudCommand {
  static override paths = [['dev']];
  static override usage = CloudCommand.Usage({
    description: 'Deploy the service, then redeploy on every change to its files (hotswap when it can)',
    details: `
      Deploys once, then watches the service folder (not node_modules, .git or .serverless). After each
      burst of changes the changed JavaScript and TypeScript files are checked for syntax errors, the
      service is packaged and deployed with \`--hotswap\`: a code or plain-setting change updates the
      functions in place, anything else (a new route, a table) goes through CloudFormation.
      A syntax error or a failed deploy is printed and the loop waits for the next change.
      The functions' logs are printed as they come, prefixed by the function's name (on AWS through
      CloudWatch Logs Live Tail, 10 functions per session; polled where Live Tail is not served).
      With \`--local\` a local cloud started by the command serves the endpoints while it runs.
      Ctrl-C stops watching and exits with 130; what is deployed stays deployed.
    `,
    examples: [
      ['Work against the local cloud', '$0 dev --local'],
      ['Work against the dev stage on AWS', '$0 dev --stage dev'],
    ],
  });

  hotswapProduction = Option.Boolean('--hotswap-production', false, { description: 'Allow hotswaps on a stage named like production' });

  async run(): Promise<number> {
    const { runDevLoop } = require('../dev/loop') as typeof import('../dev/loop');
    const { formatSummary } = require('../deploy/summary') as typeof import('../deploy/summary');
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const reporter = this.reporter();
    try {
      await runDevLoop(
        { ...this.cloudRequest(), hotswapProduction: this.hotswapProduction, timings: this.verbose },
        {
          write: text => this.context.stdout.write(text),
          error: error => {
            reporter.done();
            reportError(this.context.stderr, error);
          },
          reporter,
          summary: result => formatSummary(result.summary, this.verbose),
        },
        controller.signal,
      );
      reporter.done();
      this.context.stdout.write('\nStopped watching; what is deployed stays deployed.\n');
      return 130;
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
  }
}
