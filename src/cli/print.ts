import { Option } from 'clipanion';
import { ConfigError } from '../errors';
import { ServiceCommand } from './base';

const MASK = '********';

export class PrintCommand extends ServiceCommand {
  static override paths = [['print']];
  static override usage = ServiceCommand.Usage({
    description: 'Print the service configuration with every variable resolved',
    details: 'Values that came from `${ssm:…}` or `${s3:…}` are masked unless --show-secrets is given.',
    examples: [
      ['Print the resolved configuration as YAML', '$0 print'],
      ['Print the prod environment variables as JSON', '$0 print --stage prod --path provider.environment --format json'],
      ['Show values read from SSM and S3 too', '$0 print --show-secrets'],
    ],
  });

  format = Option.String('--format', 'yaml', { description: 'Output format: yaml (default) or json' });
  valuePath = Option.String('--path', { description: 'Print only the value at this dotted path, e.g. provider.environment' });
  showSecrets = Option.Boolean('--show-secrets', false, { description: 'Do not mask values read from ssm: and s3:' });

  async run(): Promise<number> {
    if (this.format !== 'yaml' && this.format !== 'json') throw new ConfigError(`--format expects "yaml" or "json", got ${JSON.stringify(this.format)}`);
    const { loadService } = require('../config/service') as typeof import('../config/service');
    const secrets = new Set<string>();
    const { config } = await loadService({
      cwd: process.cwd(),
      options: this.cliOptions(),
      secrets,
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
    if (!this.showSecrets) value = maskSecrets(value, secrets);
    this.context.stdout.write(await render(value, this.format));
    return 0;
  }
}

async function render(value: unknown, format: 'yaml' | 'json'): Promise<string> {
  if (format === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  const { stringify } = require('yaml') as typeof import('yaml');
  return stringify(value, { lineWidth: 0 });
}

/**
 * Replaces what came from ssm:/s3: with a mask. A secret inside a longer
 * string is masked where it appears; a very short one (under 4 characters)
 * only when it is the whole value, so "1" does not mask every digit.
 */
export function maskSecrets(value: unknown, secrets: Set<string>): unknown {
  if (secrets.size === 0) return value;
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, secrets));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, maskSecrets(child, secrets)]));
  }
  if (typeof value === 'number' || typeof value === 'boolean') return secrets.has(String(value)) ? MASK : value;
  if (typeof value !== 'string') return value;
  if (secrets.has(value)) return MASK;
  let masked = value;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 4) masked = masked.split(secret).join(MASK);
  }
  return masked;
}
