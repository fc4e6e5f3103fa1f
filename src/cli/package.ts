import { relative } from 'node:path';
import { Option } from 'clipanion';
import { ServiceCommand } from './base';

export class PackageCommand extends ServiceCommand {
  static override paths = [['package']];
  static override usage = ServiceCommand.Usage({
    description: 'Write the CloudFormation template and the code artifacts into .serverless/',
    examples: [
      ['Package the service in this folder for the dev stage', '$0 package'],
      ['Package for another stage and region', '$0 package --stage prod --region eu-west-1'],
      ['Package a service file with another name', '$0 package --config api.yml'],
      ['Package into another folder (then: fw deploy --package build/package)', '$0 package --package build/package'],
      ['List every file written, with its size', '$0 package --verbose'],
    ],
  });

  packageDir = Option.String('--package,-p', { description: 'The folder to write the package to (default: .serverless)' });
  minifyTemplate = Option.Boolean('--minify-template', false, { description: 'Write the templates without whitespace' });

  async run(): Promise<number> {
    const started = Date.now();
    // Loaded when the command runs, so `fw --help` stays fast.
    const { packageService } = require('../api/package') as typeof import('../api/package');
    const { packagingLine } = require('../package/artifacts') as typeof import('../package/artifacts');
    const { createProgress, formatSize } = require('../terminal/progress') as typeof import('../terminal/progress');
    const progress = createProgress(this.context.stderr, { env: this.context.env, lines: this.context.stdout });
    const result = await packageService({
      cwd: process.cwd(),
      options: this.cliOptions(),
      outDir: this.packageDir,
      onProgress: state => progress.update(packagingLine(state)),
    }).finally(() => progress.done());
    if (this.minifyTemplate) (require('./deploy-v3-options') as typeof import('./deploy-v3-options')).minifyTemplates(result.packaged);
    const out = this.out;
    const folder = relative(process.cwd(), result.outDir) || '.';
    const sizes = new Map(result.artifacts.map(artifact => [artifact.name, artifact.size]));
    const zips = result.artifacts.filter(artifact => artifact.name.endsWith('.zip'));
    const templates = result.files.filter(file => file.startsWith('cloudformation-template-')).length;
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const code = zips.length === 0 ? '' : `${plural(zips.length, 'zip')} (${formatSize(zips.reduce((sum, zip) => sum + zip.size, 0))}), `;
    // One summary, as v3; each file with its size under --verbose.
    this.context.stdout.write(
      `${out.green('✔')} Packaged ${out.bold(result.service)} for stage ${out.bold(result.stage)} (${result.region}) in ${Date.now() - started} ms: ` +
        `${code}${plural(templates, 'template')} and the state file in ${folder}/\n` +
        (this.verbose || this.debug !== undefined
          ? result.files.map(file => `  ${out.dim(`${folder}/`)}${file}${sizes.has(file) ? ` (${formatSize(sizes.get(file)!)})` : ''}\n`).join('')
          : ''),
    );
    return 0;
  }
}
