import { GlobalCommand } from './global-command';

/** One line of `fw doctor`: ✔ or ✖ and what was found. */
interface Check {
  ok: boolean;
  line: string;
}

/** Where a command outside any stage would find credentials, named without any secret. */
export function credentialsSource(env: NodeJS.ProcessEnv, credentialsFileProfiles: string[] | undefined): Check {
  // AWS_PROFILE comes before the environment keys, as in Serverless v3 (src/aws/credentials.ts).
  if (!env.AWS_PROFILE && env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) return { ok: true, line: 'AWS credentials: from the environment (AWS_ACCESS_KEY_ID)' };
  const profile = env.AWS_PROFILE ?? 'default';
  if (credentialsFileProfiles?.includes(profile)) return { ok: true, line: `AWS credentials: profile "${profile}" of the shared credentials file` };
  if (credentialsFileProfiles && credentialsFileProfiles.length > 0) {
    return { ok: false, line: `AWS credentials: no profile "${profile}" in the shared credentials file (it has ${credentialsFileProfiles.join(', ')}); --aws-profile picks one` };
  }
  return { ok: false, line: 'AWS credentials: none found in the environment or the shared credentials file (SSO, ~/.aws/config and instance roles are tried when a command runs; --local needs none)' };
}

export class DoctorCommand extends GlobalCommand {
  static override paths = [['doctor']];
  static override usage = GlobalCommand.Usage({
    description: 'Check the setup: Node.js version, AWS credentials, the service file here, the local cloud',
    details: 'Serverless v3\'s doctor lists the deprecations of the last command; fw prints deprecations when a command runs and stores none, so it checks what commands need instead. Exits 1 when a check fails (the local cloud not running is not a failure).',
  });

  async run(): Promise<number> {
    const { existsSync, readFileSync } = require('node:fs') as typeof import('node:fs');
    const { version } = require('../version') as typeof import('../version');
    const { sharedCredentialsFile } = require('./config-credentials') as typeof import('./config-credentials');
    const { findServiceFile } = require('../config/find') as typeof import('../config/find');
    const { localCloudAnswers, localPort } = require('../deploy/connect') as typeof import('../deploy/connect');
    const checks: Check[] = [];
    const major = Number(process.versions.node.split('.')[0]);
    checks.push({ ok: major >= 20, line: `Node.js ${process.versions.node}${major >= 20 ? '' : ': fw needs Node.js 20 or later'}` });
    const file = sharedCredentialsFile();
    const profiles = existsSync(file) ? [...readFileSync(file, 'utf8').matchAll(/^\s*\[([^\]]+)\]/gm)].map(match => match[1].trim()) : undefined;
    checks.push(credentialsSource(process.env, profiles));
    try {
      checks.push({ ok: true, line: `Service file: ${findServiceFile(process.cwd()).path}` });
    } catch (error) {
      checks.push({ ok: false, line: `Service file: ${(error as Error).message}` });
    }
    const port = localPort();
    const running = port !== 0 && (await localCloudAnswers(port));
    const lines = checks.map(check => `${check.ok ? this.ok('✔') : this.bad('✖')} ${check.line}`);
    lines.push(`${running ? this.ok('✔') : '-'} Local cloud: ${running ? `running on port ${port}` : `not running on port ${port} ("fw local start" starts it; --local starts one per command)`}`);
    this.context.stdout.write(`fw ${version}\n${lines.join('\n')}\nDeprecations: none stored (fw prints them when a command runs)\n`);
    return checks.every(check => check.ok) ? 0 : 1;
  }

  private ok(text: string): string {
    const { colorsEnabled, style } = require('../terminal/output') as typeof import('../terminal/output');
    return style(colorsEnabled(this.context.stdout)).green(text);
  }

  private bad(text: string): string {
    const { colorsEnabled, style } = require('../terminal/output') as typeof import('../terminal/output');
    return style(colorsEnabled(this.context.stdout)).red(text);
  }
}
