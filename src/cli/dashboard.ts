import { Option } from 'clipanion';
import { GlobalCommand } from './global-command';

/**
 * Serverless v3's account and telemetry commands (`login`, `logout`, `dashboard`, `slstats`): fw has no
 * account, dashboard or telemetry, so they do nothing and say so in one line; v3 scripts calling them go on.
 */
abstract class DashboardCommand extends GlobalCommand {
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
const DETAILS = 'fw has no account, no dashboard and sends no telemetry; login, logout, dashboard and slstats print one line and exit 0 so v3 scripts keep working.';

export class LoginCommand extends DashboardCommand {
  static override paths = [['login']];
  static override usage = GlobalCommand.Usage({ description: "Serverless v3's Dashboard login: accepted, fw has no account", details: DETAILS });
}
export class LogoutCommand extends DashboardCommand {
  static override paths = [['logout']];
  static override usage = GlobalCommand.Usage({ description: "Serverless v3's Dashboard logout: accepted, fw has no account", details: DETAILS });
}
export class DashboardOpenCommand extends DashboardCommand {
  static override paths = [['dashboard']];
  static override usage = GlobalCommand.Usage({ description: "Serverless v3's Dashboard: accepted, fw has no dashboard", details: DETAILS });
}
export class SlstatsCommand extends DashboardCommand {
  static override paths = [['slstats']];
  static override usage = GlobalCommand.Usage({ description: "Serverless v3's usage statistics switch: accepted, fw sends none", details: DETAILS });
}
