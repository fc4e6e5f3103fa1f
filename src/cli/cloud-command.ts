import { Option } from 'clipanion';
import type { StackEvent } from '@aws-sdk/client-cloudformation';
import { ServiceCommand } from './base';
import type { Reporter } from '../deploy/deploy';
import type { Connection } from '../deploy/connect';
import type { LoadedService } from '../service/load';

/** Options of every command that talks to CloudFormation, on AWS or elsewhere. */
export abstract class CloudCommand extends ServiceCommand {
  local = Option.Boolean('--local', false, { description: "Use fw's embedded local cloud instead of AWS" });
  endpointUrl = Option.String('--endpoint-url', { description: 'Any AWS-compatible endpoint (default: $AWS_ENDPOINT_URL, else AWS)' });
  override verbose = Option.Boolean('--verbose,-v', false, { description: 'Show every stack event' });
  /** The port of the running local cloud found when the command began (asked once, with --local). */
  private localCloudPort?: number;

  /**
   * `${ssm:…}`, `${cf:…}`, `${s3:…}` read from the same place the command deploys to: the endpoint
   * given with --endpoint-url, or the running local cloud with --local (they read AWS_ENDPOINT_URL).
   */
  override async execute(): Promise<number> {
    const previous = { endpoint: process.env.AWS_ENDPOINT_URL, key: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    const { checkOneTarget, runningLocalCloudPort } = require('../deploy/connect') as typeof import('../deploy/connect');
    try {
      checkOneTarget(this.local, this.endpointUrl);
      if (this.local) this.localCloudPort = await runningLocalCloudPort();
    } catch (error) {
      this.report(error);
      return 1;
    }
    if (this.endpointUrl) process.env.AWS_ENDPOINT_URL = this.endpointUrl;
    else if (this.local) {
      if (this.localCloudPort !== undefined) {
        process.env.AWS_ENDPOINT_URL = `http://127.0.0.1:${this.localCloudPort}`;
        process.env.AWS_ACCESS_KEY_ID ??= 'local';
        process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
      }
    }
    try {
      return await super.execute();
    } finally {
      restore('AWS_ENDPOINT_URL', previous.endpoint);
      restore('AWS_ACCESS_KEY_ID', previous.key);
      restore('AWS_SECRET_ACCESS_KEY', previous.secret);
    }
  }

  /** The command's options as a request to the library API (src/api), which does the work. */
  protected cloudRequest(): import('../api/request').CloudRequest {
    return {
      cwd: this.serviceDir,
      options: this.cliOptions(),
      local: this.local && this.localCloudPort !== undefined ? { port: this.localCloudPort } : this.local,
      endpoint: this.endpointUrl,
      profile: this.awsProfile,
      localCloudRunning: this.local ? this.localCloudPort !== undefined : undefined,
      write: text => this.context.stdout.write(text),
    };
  }

  protected override applicationRequest(): import('../api/request').CloudRequest {
    return this.cloudRequest();
  }

  protected async loadService(): Promise<LoadedService> {
    const { loadServiceConfig } = require('../service/load') as typeof import('../service/load');
    return loadServiceConfig(this.serviceDir, this.cliOptions());
  }

  protected async connect(loaded: LoadedService): Promise<Connection> {
    const { connect } = require('../deploy/connect') as typeof import('../deploy/connect');
    const { credentialSourcesOf } = require('../aws/credentials') as typeof import('../aws/credentials');
    return connect({ region: loaded.region, credentials: credentialSourcesOf(loaded, this.awsProfile), local: this.local, endpoint: this.endpointUrl, localPort: this.localCloudPort, localCloudRunning: this.local ? this.localCloudPort !== undefined : undefined });
  }

  /** Progress rewritten in place on a terminal, plain periodic lines when piped; every event with --verbose; never credentials. */
  protected reporter(): Reporter & { done(): void } {
    const { createProgress } = require('../terminal/progress') as typeof import('../terminal/progress');
    const progress = createProgress(this.context.stderr, { env: this.context.env, lines: this.context.stdout });
    return {
      info: line => progress.line(line),
      progress: line => progress.update(line),
      event: (event: StackEvent) => {
        if (!this.verbose) return;
        const time = event.Timestamp?.toISOString().slice(11, 19) ?? '';
        const reason = event.ResourceStatusReason ? `  ${event.ResourceStatusReason}` : '';
        progress.line(`  ${time}  ${event.ResourceStatus}  ${event.LogicalResourceId} (${event.ResourceType})${reason}`);
      },
      detail: line => {
        if (this.verbose) progress.line(line);
      },
      done: () => progress.done(),
    };
  }
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
