import { Option } from 'clipanion';
import { ConfigError } from '../errors';
import { ServiceCommand } from './base';
import { secretValues } from '../variables/secrets';

export class PrintCommand extends ServiceCommand {
  static override paths = [['print']];
  static override usage = ServiceCommand.Usage({
    description: 'Print the service configuration with every variable resolved',
    details: 'Values that came from `${ssm:…}`, `${s3:…}` or `${cf:…}` show as `<secret from ssm:/path>` unless --show-secrets is given.',
    examples: [
      ['Print the resolved configuration as YAML', '$0 print'],
      ['Print the prod environment variables as JSON', '$0 print --stage prod --path provider.environment --format json'],
      ['Show values read from SSM and S3 too', '$0 print --show-secrets'],
    ],
  });

  format = Option.String('--format', 'yaml', { description: 'Output format: yaml (default) or json' });
  valuePath = Option.String('--path', { description: 'Print only the value at this dotted path, e.g. provider.environment' });
  showSecrets = Option.Boolean('--show-secrets', false, { description: 'Do not mask values read from ssm:, s3: and cf:' });

  async run(): Promise<number> {
    if (this.format !== 'yaml' && this.format !== 'json') throw new ConfigError(`--format expects "yaml" or "json", got ${JSON.stringify(this.format)}`);
    const { loadService } = require('../config/service') as typeof import('../config/service');
    const { config } = await loadService({
      cwd: process.cwd(),
      options: this.cliOptions(),
      warn: (line) => this.context.stderr.write(`${this.out.yellow(line)}\n`),
    });
    let value: unknown = config;
    if (this.valuePath !== undefined && this.valuePath !== '') {
      for (const segment of this.valuePath.split('.')) {
        if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) {
          throw new ConfigError(`Nothing at "${this.valuePath}" in the resolved configuration`);
        }
        value = (value as Record<string, unknown>)[segment];
      }
    }
    if (this.showSecrets) secretValues.reveal();
    else value = secretValues.maskValue(value);
    this.context.stdout.write(await render(value, this.format));
    return 0;
  }
}

async function render(value: unknown, format: 'yaml' | 'json'): Promise<string> {
  if (format === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  const { stringify } = require('yaml') as typeof import('yaml');
  return stringify(value, { lineWidth: 0 });
}
