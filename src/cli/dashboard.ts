import { Option } from 'clipanion';
import { GlobalCommand } from './global-command';

/**
 * Serverless v3's account and telemetry commands (`login`, `logout`, `dashboard`, `slstats`): fw has no
 * account, dashboard or telemetry, so they do nothing and say so in one line; v3 scripts calling them go on.
 */
abstract class DashboardCommand extends GlobalCommand {
  static override usage = GlobalCommand.Usage({
    description: 'Serverless Dashboard and telemetry commands (login, logout, dashboard, slstats): accepted, nothing to do in fw',
    details: 'fw has no account, no dashboard and sends no telemetry; these commands print one line and exit 0 so v3 scripts keep working.',
  });

  config = Option.String('--config,-c', { description: 'Accepted' });
  stage = Option.String('--stage,-s', { description: 'Accepted' });
  params = Option.Array('--param', { description: 'Accepted' });
  dashboard = Option.Boolean('--dashboard', false, { description: 'Accepted (login)' });
  enable = Option.Boolean('--enable,-e', false, { description: 'Accepted (slstats): fw sends no statistics' });
  disable = Option.Boolean('--disable,-d', false, { description: 'Accepted (slstats): fw sends no statistics' });

  async run(): Promise<number> {
    const command = this.path.join(' ');
    this.context.stderr.write(`fw ${command}: nothing to do, fw has no Serverless account or dashboard and sends no usage statistics\n`);
    return 0;
  }
}

// One class per command, so each is listed (and helped) on its own.
export class LoginCommand extends DashboardCommand {
  static override paths = [['login']];
}
export class LogoutCommand extends DashboardCommand {
  static override paths = [['logout']];
}
export class DashboardOpenCommand extends DashboardCommand {
  static override paths = [['dashboard']];
}
export class SlstatsCommand extends DashboardCommand {
  static override paths = [['slstats']];
}
