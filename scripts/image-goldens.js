#!/usr/bin/env node
// Records what the reference (serverless@3.40.0, `serverless package`) does for the container image
// cases under test/fixtures/images/<case>/: the templates (expected/update.json), the docker commands
// it runs (expected/docker.json, from the fake docker in test/fixtures/images/fake-docker put first
// on PATH) and its ECR and STS calls (expected/aws-calls.json), answered by a stub ECR of account
// 000000000000 that holds the images of the case's ecr-images.json ({ repository: { tag: manifest } };
// a digest is the manifest's sha256, as ECR computes it). docker-mode.txt sets $FAKE_DOCKER_MODE.
//
//   node scripts/image-goldens.js [case-name-regex]
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { findReference, clockPreload, referenceEnv } = require('./goldens');

const ROOT = path.join(__dirname, '..', 'test', 'fixtures', 'images');
const FAKE_DOCKER = path.join(ROOT, 'fake-docker');

const ECR_STUB = `'use strict';
const fs = require('fs');
const crypto = require('crypto');
const ACCOUNT = '000000000000';
const log = (entry) => fs.appendFileSync(process.env.AWS_CALL_LOG, JSON.stringify(entry) + '\\n');
const seeded = process.env.ECR_IMAGES ? JSON.parse(fs.readFileSync(process.env.ECR_IMAGES, 'utf8')) : {};
const repositories = new Set(Object.keys(seeded));
const fail = (code, message) => Object.assign(new Error(message), { code, providerError: { code } });
const uri = (name, region) => ACCOUNT + '.dkr.ecr.' + region + '.amazonaws.com/' + name;
const Module = require('module');
const load = Module._load;
Module._load = function (...args) {
  const loaded = load.apply(this, args);
  if (typeof loaded === 'function' && loaded.getProviderName && loaded.getProviderName() === 'aws' && !loaded.prototype.fwEcrStub) {
    const request = loaded.prototype.request;
    loaded.prototype.request = async function (service, method, params, ...rest) {
      if (service !== 'ECR' && service !== 'STS') return request.call(this, service, method, params, ...rest);
      log({ service, method, params });
      const region = this.getRegion();
      if (service === 'STS') return { Account: ACCOUNT, Arn: 'arn:aws:iam::' + ACCOUNT + ':user/golden', UserId: 'GOLDEN' };
      switch (method) {
        case 'describeRepositories': {
          const name = params.repositoryNames[0];
          if (!repositories.has(name)) throw fail('RepositoryNotFoundException', "The repository with name '" + name + "' does not exist in the registry with id '" + ACCOUNT + "'");
          return { repositories: [{ repositoryName: name, repositoryUri: uri(name, region), registryId: ACCOUNT }] };
        }
        case 'createRepository':
          repositories.add(params.repositoryName);
          return { repository: { repositoryName: params.repositoryName, repositoryUri: uri(params.repositoryName, region), registryId: ACCOUNT } };
        case 'getAuthorizationToken':
          return { authorizationData: [{ authorizationToken: Buffer.from('AWS:golden-password').toString('base64'), proxyEndpoint: 'https://' + ACCOUNT + '.dkr.ecr.' + region + '.amazonaws.com' }] };
        case 'describeImages': {
          const tag = params.imageIds[0].imageTag;
          const manifest = (seeded[params.repositoryName] || {})[tag];
          if (manifest === undefined) throw fail('ImageNotFoundException', 'image not found');
          return { imageDetails: [{ imageDigest: 'sha256:' + crypto.createHash('sha256').update(manifest).digest('hex'), imageTags: [tag] }] };
        }
        default:
          throw new Error('the stub ECR does not answer ' + method);
      }
    };
    loaded.prototype.fwEcrStub = true;
  }
  return loaded;
};
`;

function main() {
  const filter = process.argv[2] ? new RegExp(process.argv[2]) : null;
  const serverlessBin = findReference();
  for (const name of fs.readdirSync(ROOT).sort()) {
    const dir = path.join(ROOT, name);
    if (!fs.existsSync(path.join(dir, 'serverless.yml')) || (filter && !filter.test(name))) continue;
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-image-golden-'));
    const work = path.join(tmp, name);
    fs.cpSync(dir, work, { recursive: true, filter: (source) => !source.startsWith(path.join(dir, 'expected')) });
    clockPreload(path.join(tmp, 'clock.cjs'));
    fs.writeFileSync(path.join(tmp, 'ecr.cjs'), ECR_STUB);
    const dockerLog = path.join(tmp, 'docker.log');
    const awsLog = path.join(tmp, 'aws.log');
    const read = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
    const env = Object.assign(referenceEnv(), {
      PATH: `${FAKE_DOCKER}${path.delimiter}${process.env.PATH}`,
      FAKE_DOCKER_LOG: dockerLog,
      FAKE_DOCKER_MODE: read(path.join(dir, 'docker-mode.txt')).trim(),
      AWS_CALL_LOG: awsLog,
      ECR_IMAGES: fs.existsSync(path.join(dir, 'ecr-images.json')) ? path.join(dir, 'ecr-images.json') : '',
    });
    const run = spawnSync(process.execPath, ['--require', path.join(tmp, 'clock.cjs'), '--require', path.join(tmp, 'ecr.cjs'), serverlessBin, 'package'], { cwd: work, env, encoding: 'utf8' });
    const expected = path.join(dir, 'expected');
    fs.rmSync(expected, { recursive: true, force: true });
    fs.mkdirSync(expected);
    const lines = (text) => text.split('\n').filter(Boolean).map((line) => JSON.parse(line.split(work).join('<case>')));
    const update = path.join(work, '.serverless', 'cloudformation-template-update-stack.json');
    if (run.status === 0 && fs.existsSync(update)) fs.copyFileSync(update, path.join(expected, 'update.json'));
    else fs.writeFileSync(path.join(expected, 'error.txt'), `${run.stdout}\n${run.stderr}`.split(work).join('<case>'));
    fs.writeFileSync(path.join(expected, 'docker.json'), JSON.stringify(lines(read(dockerLog)), null, 2) + '\n');
    fs.writeFileSync(path.join(expected, 'aws-calls.json'), JSON.stringify(lines(read(awsLog)), null, 2) + '\n');
    console.log(`${name}: ${run.status === 0 ? 'ok' : `error (exit ${run.status})`}`);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main();
