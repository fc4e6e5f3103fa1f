import { Option } from 'clipanion';
import { ConfigError } from '../errors';
import { CloudCommand } from './cloud-command';

/** Rows under a header, each column as wide as its widest cell, two spaces between columns. */
export function outputsTable(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map(row => (row[column] ?? '').length)));
  return all.map(row => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]))).join('  ').trimEnd()).join('\n') + '\n';
}

export class OutputsCommand extends CloudCommand {
  static override paths = [['outputs']];
  static override usage = CloudCommand.Usage({
    description: "Print the deployed stack's outputs; in a compose folder, every service's outputs as the last deploy stored them",
    details: `
      In a service folder the outputs are read from the stack. In a folder with a compose file
      (fw-compose.yml, serverless-compose.yml) they are read from what the last \`fw deploy\` (or
      \`fw refresh-outputs\`) stored in .serverless/compose-outputs-<stage>.json, without calling the cloud.
    `,
    examples: [
      ['The outputs of the dev stage', '$0 outputs'],
      ['Every service of the application, as JSON', '$0 outputs --json'],
    ],
  });

  json = Option.Boolean('--json', false, { description: 'Print JSON instead of a table' });

  async run(): Promise<number> {
    const { info } = require('../api/info') as typeof import('../api/info');
    const deployed = await info(this.cloudRequest());
    const stdout = this.context.stdout;
    if (this.json) stdout.write(`${JSON.stringify(deployed.outputs, null, 2)}\n`);
    else stdout.write(outputsTable(['output', 'value'], Object.entries(deployed.outputs)));
    return 0;
  }
}

export class RefreshOutputsCommand extends CloudCommand {
  static override paths = [['refresh-outputs']];
  static override usage = CloudCommand.Usage({
    description: "Read every service's stack outputs again into the stored state (in a compose folder)",
    details: `
      The outputs one service passes to another (\`\${queue.QueueUrl}\` in a param) are stored by each deploy in
      .serverless/compose-outputs-<stage>.json. After a deploy made elsewhere (CI, a colleague), this reads
      them from the deployed stacks, so \`fw deploy --service x\` and \`fw outputs\` see the current values.
    `,
    examples: [['Refresh the stored outputs of the prod stage', '$0 refresh-outputs --stage prod']],
  });

  async run(): Promise<number> {
    throw new ConfigError('fw refresh-outputs works on a compose file (fw-compose.yml or serverless-compose.yml): run it in the application folder');
  }
}
