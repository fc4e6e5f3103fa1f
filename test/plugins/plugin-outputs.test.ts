import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { packageService } from '../../src/package/service';

const outputs = suite('outputs a v3 plugin adds to the compiled template');

outputs('are exported as sls-{service}-{stage}-{key}, as serverless@3.40.0 exports them', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'fw-plugin-outputs-'));
  try {
    writeFileSync(join(cwd, 'handler.js'), 'exports.hello = async () => 1;\n');
    writeFileSync(
      join(cwd, 'out-plugin.js'),
      `module.exports = class {
  constructor(serverless) {
    this.hooks = {
      'package:compileEvents': () => {
        const template = serverless.service.provider.compiledCloudFormationTemplate;
        template.Outputs.PluginOut = { Value: 'x', Description: 'from plugin' };
        template.Resources.PluginTopic = { Type: 'AWS::SNS::Topic' };
      },
    };
  }
};
`,
    );
    writeFileSync(
      join(cwd, 'serverless.yml'),
      ['service: plug', 'plugins:', '  - ./out-plugin.js', 'provider:', '  name: aws', '  runtime: nodejs18.x', 'functions:', '  hello:', '    handler: handler.hello', ''].join('\n'),
    );
    const { template } = await packageService({ cwd, options: {}, now: new Date('2024-01-01T00:00:00.000Z') });
    // Recorded from serverless@3.40.0 packaging the same service and plugin.
    assert.equal(template.Outputs?.PluginOut, { Value: 'x', Description: 'from plugin', Export: { Name: 'sls-plug-dev-PluginOut' } });
    assert.equal(template.Resources.PluginTopic, { Type: 'AWS::SNS::Topic' });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

outputs('added while packaging or in before:package:finalize are exported too; resources.Outputs and outputs after the export step are not (as serverless@3.40.0)', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'fw-plugin-outputs-'));
  try {
    writeFileSync(join(cwd, 'handler.js'), 'exports.hello = async () => 1;\n');
    writeFileSync(
      join(cwd, 'out-plugin.js'),
      `const hooks = ['package:createDeploymentArtifacts', 'after:package:createDeploymentArtifacts', 'before:package:finalize', 'before:aws:package:finalize:mergeCustomProviderResources'];
module.exports = class {
  constructor(serverless) {
    this.hooks = {};
    for (const hook of hooks) this.hooks[hook] = () => {
      serverless.service.provider.compiledCloudFormationTemplate.Outputs['Out' + hook.replace(/[^a-zA-Z]/g, '')] = { Value: 'x' };
    };
  }
};
`,
    );
    writeFileSync(
      join(cwd, 'serverless.yml'),
      ['service: plug', 'plugins:', '  - ./out-plugin.js', 'provider:', '  name: aws', '  runtime: nodejs18.x', 'functions:', '  hello:', '    handler: handler.hello',
        'resources:', '  Outputs:', '    Mine:', '      Value: y', ''].join('\n'),
    );
    const { template } = await packageService({ cwd, options: {}, now: new Date('2024-01-01T00:00:00.000Z') });
    // Recorded from serverless@3.40.0 packaging the same service and plugin.
    const exported = (key: string) => ({ Value: 'x', Export: { Name: `sls-plug-dev-${key}` } });
    assert.equal(template.Outputs?.OutpackagecreateDeploymentArtifacts, exported('OutpackagecreateDeploymentArtifacts'));
    assert.equal(template.Outputs?.OutafterpackagecreateDeploymentArtifacts, exported('OutafterpackagecreateDeploymentArtifacts'));
    assert.equal(template.Outputs?.Outbeforepackagefinalize, exported('Outbeforepackagefinalize'));
    assert.equal(template.Outputs?.OutbeforeawspackagefinalizemergeCustomProviderResources, { Value: 'x' });
    assert.equal(template.Outputs?.Mine, { Value: 'y' });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

outputs.run();
