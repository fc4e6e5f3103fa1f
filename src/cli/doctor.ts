import { GlobalCommand } from './global-command';

/**
 * One line of `fw doctor`: ✔ fine, ! a warning (what only some commands need: AWS credentials for
 * AWS, a service file for the commands that read one), ✖ broken for every command (exit 1).
 */
interface Check {
  ok: boolean;
  line: string;
  /** Not ok, yet only a warning: a local-only user needs no AWS credentials, a new folder no service file. */
  warning?: boolean;
}

/** Where a command outside any stage would find credentials, named without any secret. */
export function credentialsSource(env: NodeJS.ProcessEnv, credentialsFileProfiles: string[] | undefined): Check {
  // AWS_PROFILE comes before the environment keys, as in Serverless v3 (src/aws/credentials.ts).
  if (!env.AWS_PROFILE && env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) return { ok: true, line: 'AWS credentials: from the environment (AWS_ACCESS_KEY_ID)' };
  const profile = env.AWS_PROFILE ?? 'default';
  if (credentialsFileProfiles?.includes(profile)) return { ok: true, line: `AWS credentials: profile "${profile}" of the shared credentials file` };
  if (credentialsFileProfiles && credentialsFileProfiles.length > 0) {
    return { ok: false, warning: true, line: `AWS credentials: no profile "${profile}" in the shared credentials file (it has ${credentialsFileProfiles.join(', ')}); --aws-profile picks one (--local needs none)` };
  }
  return { ok: false, warning: true, line: 'AWS credentials: none found in the environment or the shared credentials file (SSO, ~/.aws/config and instance roles are tried when a command runs; --local needs none)' };
}

export class DoctorCommand extends GlobalCommand {
  static override paths = [['doctor']];
  static override usage = GlobalCommand.Usage({
    description: 'Check the setup: Node.js version, AWS credentials, the service file here, the local cloud',
    details: `
      Serverless v3's doctor lists the deprecations of the last command; fw prints deprecations when a command runs and stores none,
      so it checks what commands need instead. ✔ is fine; ! is a warning about what only some commands need (AWS credentials, which
      --local does not need; a service file in this folder) and keeps the exit code 0; ✖ is broken for every command (a Node.js older
      than 20, a service file that cannot be read) and makes it 1. The local cloud is found on whatever port it runs (FW_LOCAL_PORT,
      the endpoint.json that "fw local start" records in its data folder, else 4566); not running is no failure.
    `,
  });

  async run(): Promise<number> {
    const { existsSync, readFileSync } = require('node:fs') as typeof import('node:fs');
    const { version } = require('../version') as typeof import('../version');
    const { sharedCredentialsFile } = require('./config-credentials') as typeof import('./config-credentials');
    const { findServiceFile } = require('../config/find') as typeof import('../config/find');
    const { localPort, runningLocalCloudPort } = require('../deploy/connect') as typeof import('../deploy/connect');
    const checks: Check[] = [];
    const major = Number(process.versions.node.split('.')[0]);
    checks.push({ ok: major >= 20, line: `Node.js ${process.versions.node}${major >= 20 ? '' : ': fw needs Node.js 20 or later'}` });
    const file = sharedCredentialsFile();
    const profiles = existsSync(file) ? [...readFileSync(file, 'utf8').matchAll(/^\s*\[([^\]]+)\]/gm)].map(match => match[1].trim()) : undefined;
    checks.push(credentialsSource(process.env, profiles));
    try {
      checks.push({ ok: true, line: `Service file: ${findServiceFile(process.cwd()).path}` });
    } catch (error) {
      const message = (error as Error).message;
      checks.push({ ok: false, warning: message.startsWith('No service file in '), line: `Service file: ${message}` });
    }
    const running = await runningLocalCloudPort({}, process.env);
    const lines = checks.map(check => `${check.ok ? this.ok('✔') : check.warning ? this.warn('!') : this.bad('✖')} ${check.line}`);
    lines.push(`${running ? this.ok('✔') : '-'} Local cloud: ${running ? `running on port ${running}` : `not running on port ${localPort()} ("fw local start" starts it; --local starts one per command)`}`);
    this.context.stdout.write(`fw ${version}\n${lines.join('\n')}\nDeprecations: none stored (fw prints them when a command runs)\n`);
    return checks.every(check => check.ok || check.warning) ? 0 : 1;
  }

  private ok(text: string): string {
    const { colorsEnabled, style } = require('../terminal/output') as typeof import('../terminal/output');
    return style(colorsEnabled(this.context.stdout)).green(text);
  }

  private warn(text: string): string {
    const { colorsEnabled, style } = require('../terminal/output') as typeof import('../terminal/output');
    return style(colorsEnabled(this.context.stdout)).yellow(text);
  }

  private bad(text: string): string {
    const { colorsEnabled, style } = require('../terminal/output') as typeof import('../terminal/output');
    return style(colorsEnabled(this.context.stdout)).red(text);
  }
}
