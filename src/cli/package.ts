import { ServiceCommand } from './base';

export class PackageCommand extends ServiceCommand {
  static paths = [['package']];
  static usage = ServiceCommand.Usage({
    description: 'Synthesize the CloudFormation template and build the code artifacts into .serverless/',
    examples: [
      ['Package the service in this folder for the dev stage', '$0 package'],
      ['Package for another stage and region', '$0 package --stage prod --region eu-west-1'],
      ['Package a service file with another name', '$0 package --config api.yml'],
    ],
  });

  async run(): Promise<number> {
    const { packageService } = await import('../package/service');
    const result = await packageService({ cwd: process.cwd(), options: this.cliOptions() });
    this.context.stdout.write(`Packaged ${result.service} for stage ${result.stage} (${result.region}) into ${result.outDir}\n`);
    return 0;
  }
}
