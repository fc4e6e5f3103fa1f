import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeZip, zipEntry } from '../../src/artifacts/zip';
import { packageService } from '../../src/package/service';

/**
 * A bundler plugin as serverless-esbuild and serverless-webpack are: in
 * `before:package:createDeploymentArtifacts` it writes its zip into a work folder of its own and points
 * `package.artifact` (the function's, or the service's) at it; in `after:package:createDeploymentArtifacts`
 * it moves the zip to `.serverless/`, points the setting there and deletes its work folder.
 */
const BUNDLER = `const fs = require('fs');
const path = require('path');
module.exports = class {
  constructor(serverless) {
    const dir = serverless.config.servicePath;
    const work = path.join(dir, '.bundle');
    const level = process.env.BUNDLER_LEVEL;
    this.hooks = {
      'before:package:createDeploymentArtifacts': () => {
        fs.mkdirSync(path.join(work, '.serverless'), { recursive: true });
        if (level === 'service') {
          fs.copyFileSync(path.join(dir, 'prebuilt.zip'), path.join(work, '.serverless', 'plug.zip'));
          serverless.service.package.artifact = path.join(work, '.serverless', 'plug.zip');
        } else if (level === 'missing') {
          serverless.service.functions.hello.package = { artifact: '.bundle/.serverless/nothing.zip' };
        } else {
          fs.copyFileSync(path.join(dir, 'prebuilt.zip'), path.join(work, '.serverless', 'hello.zip'));
          serverless.service.functions.hello.package = { artifact: '.bundle/.serverless/hello.zip' };
        }
      },
      'after:package:createDeploymentArtifacts': () => {
        fs.rmSync(work, { recursive: true, force: true });
      },
    };
  }
};
`;

const artifacts = suite('zips a bundler plugin makes while packaging');

function serviceFolder(individually: boolean): { cwd: string; zip: Buffer } {
  const cwd = mkdtempSync(join(tmpdir(), 'fw-plugin-artifacts-'));
  writeFileSync(join(cwd, 'bundler.js'), BUNDLER);
  // The sources the bundler reads: fw must not zip them (nor the bundler's work folder) itself.
  writeFileSync(join(cwd, 'handler.ts'), 'export const hello = async () => "from source";\n');
  writeZip(join(cwd, 'prebuilt.zip'), [zipEntry('bundle/handler.js', Buffer.from('exports.hello = async () => "from the bundle";\n'), false)]);
  writeFileSync(
    join(cwd, 'serverless.yml'),
    ['service: plug', 'plugins:', '  - ./bundler.js', 'provider:', '  name: aws', '  runtime: nodejs20.x', ...(individually ? ['package:', '  individually: true'] : []),
      'functions:', '  hello:', '    handler: bundle/handler.hello', ''].join('\n'),
  );
  return { cwd, zip: readFileSync(join(cwd, 'prebuilt.zip')) };
}

async function packagedWith(level: string, cwd: string) {
  const previous = process.env.BUNDLER_LEVEL;
  process.env.BUNDLER_LEVEL = level;
  try {
    return await packageService({ cwd, options: {}, now: new Date('2024-01-01T00:00:00.000Z') });
  } finally {
    if (previous === undefined) delete process.env.BUNDLER_LEVEL;
    else process.env.BUNDLER_LEVEL = previous;
  }
}

artifacts('a function’s zip (package.individually, as serverless-esbuild sets it) is deployed as the plugin made it, not re-packaged by fw', async () => {
  const { cwd, zip } = serviceFolder(true);
  try {
    const packaged = await packagedWith('function', cwd);
    const hello = packaged.artifacts.functions.hello;
    assert.is(hello.path, join(cwd, '.serverless', 'hello.zip'));
    assert.ok(readFileSync(hello.path).equals(zip), 'the plugin’s zip, byte for byte');
    assert.equal(packaged.state.artifacts.map((a) => a.name), ['hello.zip']);
    assert.is(readFileSync(join(cwd, '.serverless', 'hello.zip')).length, zip.length);
    // The code is that zip's: CodeSha256 and the S3 key follow it.
    const code = (packaged.template.Resources.HelloLambdaFunction.Properties as { Code: { S3Key: string } }).Code;
    assert.is(code.S3Key, 'serverless/plug/dev/1704067200000-2024-01-01T00:00:00.000Z/hello.zip');
    assert.not.ok(existsSync(join(cwd, '.bundle')), 'the plugin removed its work folder after packaging');
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

artifacts('the service’s zip (set on serverless.service.package, as bundlers do without individually) is deployed as the plugin made it', async () => {
  const { cwd, zip } = serviceFolder(false);
  try {
    const packaged = await packagedWith('service', cwd);
    assert.is(packaged.artifacts.functions.hello.path, join(cwd, '.serverless', 'plug.zip'));
    assert.ok(readFileSync(join(cwd, '.serverless', 'plug.zip')).equals(zip), 'the plugin’s zip, byte for byte');
    assert.equal(packaged.state.artifacts.map((a) => a.name), ['plug.zip']);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

artifacts('a plugin pointing package.artifact at no file fails with the setting and the path', async () => {
  const { cwd } = serviceFolder(true);
  try {
    await packagedWith('missing', cwd).then(
      () => assert.unreachable('packaged'),
      (error: Error) => assert.is(error.message, `A plugin set functions.hello.package.artifact to ".bundle/.serverless/nothing.zip", which is not a file (${join(cwd, '.bundle', '.serverless', 'nothing.zip')})`),
    );
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

artifacts.run();
