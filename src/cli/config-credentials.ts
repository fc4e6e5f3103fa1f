import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Option } from 'clipanion';
import { ConfigError } from '../errors';
import { GlobalCommand } from './global-command';

/** The shared credentials file the AWS SDKs read: $AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/credentials. */
export function sharedCredentialsFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.AWS_SHARED_CREDENTIALS_FILE || join(homedir(), '.aws', 'credentials');
}

/**
 * The credentials file's text with `profile` set to the key and secret: the profile's section replaced
 * (or appended), every other line kept as it was. Undefined when the profile exists and `overwrite` is false.
 */
export function withProfile(text: string, profile: string, key: string, secret: string, overwrite: boolean): string | undefined {
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  const section = [`[${profile}]`, `aws_access_key_id = ${key}`, `aws_secret_access_key = ${secret}`];
  const start = lines.findIndex(line => line.trim() === `[${profile}]`);
  if (start === -1) return [...lines, ...(lines.length > 0 && lines.at(-1)!.trim() !== '' ? [''] : []), ...section, ''].join('\n');
  if (!overwrite) return undefined;
  let end = lines.findIndex((line, i) => i > start && /^\s*\[/.test(line));
  if (end === -1) end = lines.length;
  // Other settings of the profile (region, session token of old keys dropped) stay, except the two keys replaced.
  const kept = lines.slice(start + 1, end).filter(line => !/^\s*(aws_access_key_id|aws_secret_access_key|aws_session_token)\s*=/.test(line));
  return [...lines.slice(0, start), ...section, ...kept, ...lines.slice(end), ''].join('\n').replace(/\n+$/, '\n');
}

export class ConfigCredentialsCommand extends GlobalCommand {
  static override paths = [['config', 'credentials']];
  static override usage = GlobalCommand.Usage({
    description: 'Save AWS access keys as a profile in the shared credentials file (~/.aws/credentials)',
    details: `
      Writes $AWS_SHARED_CREDENTIALS_FILE (default ~/.aws/credentials) readable by you only (mode 0600),
      keeping its other profiles. An existing profile is changed only with --overwrite. The secret is never printed.
    `,
    examples: [
      ['Save the default profile', '$0 config credentials --provider aws --key AKIA… --secret …'],
      ['Replace the keys of the "work" profile', '$0 config credentials --provider aws --key AKIA… --secret … --profile work --overwrite'],
    ],
  });

  provider = Option.String('--provider,-p', { required: true, description: 'The provider: aws' });
  key = Option.String('--key,-k', { required: true, description: 'The access key id' });
  secret = Option.String('--secret,-s', { required: true, description: 'The secret access key' });
  profile = Option.String('--profile,-n', 'default', { description: 'The profile name (default: default)' });
  overwrite = Option.Boolean('--overwrite,-o', false, { description: 'Replace the keys of an existing profile' });

  async run(): Promise<number> {
    if (this.provider !== 'aws') throw new ConfigError(`Invalid --provider "${this.provider}": fw deploys to AWS, the only provider is "aws"`);
    if (!/^[\w.+@-]+$/.test(this.profile)) throw new ConfigError(`Invalid --profile "${this.profile}": letters, digits and . _ + @ - only`);
    if (!this.key.trim() || /\s/.test(this.key)) throw new ConfigError('Invalid --key: expected an access key id without spaces');
    if (!this.secret.trim() || /\s/.test(this.secret)) throw new ConfigError('Invalid --secret: expected a secret access key without spaces');
    const file = sharedCredentialsFile();
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const updated = withProfile(text, this.profile, this.key, this.secret, this.overwrite);
    if (updated === undefined) {
      throw new ConfigError(`Profile "${this.profile}" is already in ${file}: add --overwrite (-o) to replace its keys`);
    }
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, updated, { mode: 0o600 });
    chmodSync(file, 0o600);
    this.context.stdout.write(`Profile "${this.profile}" saved in ${file} (access key ${this.key.slice(0, 4)}…${this.key.slice(-4)})\n`);
    return 0;
  }
}

export class ConfigCommand extends GlobalCommand {
  static override paths = [['config']];
  static override usage = GlobalCommand.Usage({
    description: 'Serverless v3\'s "config" (auto-update settings): fw has nothing to configure here',
    details: 'Accepted so v3 scripts run; `fw config credentials` saves AWS keys.',
  });

  autoupdate = Option.Boolean('--autoupdate', { description: 'Accepted: fw is updated with npm, it never updates itself' });

  async run(): Promise<number> {
    this.context.stdout.write(`${this.autoupdate === undefined ? 'fw config' : `--${this.autoupdate ? '' : 'no-'}autoupdate`}: nothing to configure, fw is updated with npm (npm install fw-deploy@latest); "fw config credentials" saves AWS keys\n`);
    return 0;
  }
}
