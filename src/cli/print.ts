import { Option } from 'clipanion';
import { ConfigError } from '../errors';
import { ServiceCommand } from './base';
import { secretValues } from '../secrets';

export class PrintCommand extends ServiceCommand {
  static override paths = [['print']];
  static override usage = ServiceCommand.Usage({
    description: 'Print the service configuration with every variable resolved',
    details: 'Values that came from `${ssm:…}`, `${s3:…}` or `${cf:…}` show as `<secret from ssm:/path>` unless --show-secrets is given.',
    examples: [
      ['Print the resolved configuration as YAML', '$0 print'],
      ['Print the prod environment variables as JSON', '$0 print --stage prod --path provider.environment --format json'],
      ['Show values read from SSM and S3 too', '$0 print --show-secrets'],
      ['List the function keys, one a line', '$0 print --path functions --transform keys --format text'],
    ],
  });

  format = Option.String('--format', 'yaml', { description: 'Output format: yaml (default), json, or text (a plain value, or one item a line)' });
  transform = Option.String('--transform', { description: 'keys: print only the keys of the value' });
  valuePath = Option.String('--path', { description: 'Print only the value at this dotted path, e.g. provider.environment' });
  showSecrets = Option.Boolean('--show-secrets', false, { description: 'Do not mask values read from ssm:, s3: and cf:' });

  async run(): Promise<number> {
    if (this.format !== 'yaml' && this.format !== 'json' && this.format !== 'text') throw new ConfigError(`--format expects "yaml", "json" or "text", got ${JSON.stringify(this.format)}`);
    if (this.transform !== undefined && this.transform !== 'keys') throw new ConfigError(`--transform expects "keys", got ${JSON.stringify(this.transform)}`);
    const { loadService } = require('../service/load') as typeof import('../service/load');
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
    if (this.transform === 'keys') {
      if (value === null || typeof value !== 'object') throw new ConfigError(`--transform keys needs an object at "${this.valuePath ?? ''}", got ${JSON.stringify(value)}`);
      value = Object.keys(value);
    }
    if (this.showSecrets) secretValues.reveal();
    else value = secretValues.maskValue(value);
    this.context.stdout.write(await render(value, this.format));
    return 0;
  }
}

async function render(value: unknown, format: 'yaml' | 'json' | 'text'): Promise<string> {
  if (format === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  if (format === 'text') {
    if (Array.isArray(value) && value.every(item => item === null || typeof item !== 'object')) return value.map(item => `${String(item)}\n`).join('');
    if (value !== null && typeof value === 'object') throw new ConfigError('--format text prints a plain value or a list: pick one with --path, or use --transform keys');
    return `${String(value)}\n`;
  }
  const { stringify } = require('yaml') as typeof import('yaml');
  return stringify(value, { lineWidth: 0 });
}
