import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import { readJson, writeJsonAtomic } from '../state/files';

/** An error whose JSON protocol shape is not named after its query protocol code (DashboardNotFoundError is `ResourceNotFound`). */
export class ShapedError extends AwsError {
  constructor(
    code: string,
    readonly shape: string,
    message: string,
  ) {
    super(code, message, code === 'ResourceNotFound' ? 404 : 400);
  }
}

interface Dashboard {
  DashboardName: string;
  DashboardBody: string;
  LastModified: number;
}

const notFound = (names: string[]) => new ShapedError('ResourceNotFound', 'DashboardNotFoundError', `Dashboard${names.length > 1 ? 's' : ''} ${names.join(', ')} ${names.length > 1 ? 'do' : 'does'} not exist`);

/** CloudWatch dashboards as PutDashboard keeps them (`state/cloudwatch-dashboards.json`): the body as given, never rendered. */
export class Dashboards {
  private readonly file: string;
  private readonly dashboards: Record<string, Dashboard>;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'state', 'cloudwatch-dashboards.json');
    this.dashboards = readJson<Record<string, Dashboard>>(this.file, {});
  }

  /** PutDashboard: a name of 1–255 letters, digits, `-` and `_`; a body that is a JSON object, its `widgets` an array if given. */
  put(name: unknown, body: unknown): void {
    if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,255}$/.test(name)) throw new ShapedError('InvalidParameterInput', 'DashboardInvalidInputError', 'The value for DashboardName must contain only alphanumerics, dash (-) and underscore (_), and be 1 to 255 characters long.');
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(body));
    } catch {
      parsed = undefined;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ShapedError('InvalidParameterInput', 'DashboardInvalidInputError', 'The field DashboardBody must be a valid JSON object');
    const widgets = (parsed as { widgets?: unknown }).widgets;
    if (widgets !== undefined && !Array.isArray(widgets)) throw new ShapedError('InvalidParameterInput', 'DashboardInvalidInputError', 'The field DashboardBody\'s widgets must be an array');
    this.dashboards[name] = { DashboardName: name, DashboardBody: String(body), LastModified: Date.now() };
    writeJsonAtomic(this.file, this.dashboards);
  }

  get(name: unknown): Dashboard {
    const dashboard = typeof name === 'string' && Object.hasOwn(this.dashboards, name) ? this.dashboards[name] : undefined;
    if (!dashboard) throw notFound([String(name)]);
    return dashboard;
  }

  /** DeleteDashboards: all or none; any name not found refuses the call. */
  delete(names: string[]): void {
    const missing = names.filter((name) => !Object.hasOwn(this.dashboards, name));
    if (missing.length > 0) throw notFound(missing);
    for (const name of names) delete this.dashboards[name];
    writeJsonAtomic(this.file, this.dashboards);
  }

  list(prefix: string): Dashboard[] {
    return Object.values(this.dashboards)
      .filter((dashboard) => dashboard.DashboardName.startsWith(prefix))
      .sort((a, b) => (a.DashboardName < b.DashboardName ? -1 : 1));
  }
}
