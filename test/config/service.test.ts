import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadService } from '../../src/service/load';
import { errorOf, tempService } from './helpers';

const service = suite('loadService');

service('returns the file, raw and resolved config, stage and region', async () => {
  const folder = tempService({ 'serverless.yml': "service: app\nprovider:\n  name: aws\n  region: ${opt:region, 'eu-west-1'}\ncustom:\n  stage: ${sls:stage}\n" });
  try {
    const loaded = await loadService({ cwd: folder.dir, options: { stage: 'qa' } });
    assert.equal(loaded.raw.custom, { stage: '${sls:stage}' });
    assert.equal(loaded.config.custom, { stage: 'qa' });
    assert.equal([loaded.stage, loaded.region], ['qa', 'eu-west-1']);
  } finally {
    folder.cleanup();
  }
});

service('--config picks another file', async () => {
  const folder = tempService({ 'api.yml': 'service: other\nprovider:\n  name: aws\n', 'fw.yml': 'service: app\nprovider:\n  name: aws\n' });
  try {
    assert.is((await loadService({ cwd: folder.dir, options: { config: 'api.yml' } })).config.service, 'other');
  } finally {
    folder.cleanup();
  }
});

service('useDotenv loads .env.{stage}, else .env, without overriding the environment', async () => {
  const folder = tempService({
    'fw.yml': 'service: app\nuseDotenv: true\nprovider:\n  name: aws\ncustom:\n  a: ${env:A}\n  b: ${env:B}\n  url: ${env:URL}\n',
    '.env': 'A=from-env\nB=from-env\nURL=x\n',
    '.env.prod': '# prod\nexport A="prod a"\nB=prod-b # comment\nBASE=api.com\nURL=https://$BASE/${A}\n',
  });
  try {
    const dev = await loadService({ cwd: folder.dir, env: { B: 'process' } });
    assert.equal(dev.config.custom, { a: 'from-env', b: 'process', url: 'x' });
    const prod = await loadService({ cwd: folder.dir, env: {}, options: { stage: 'prod' } });
    assert.equal(prod.config.custom, { a: 'prod a', b: 'prod-b', url: 'https://api.com/prod a' });
  } finally {
    folder.cleanup();
  }
});

service('without useDotenv, .env is not read', async () => {
  const folder = tempService({ 'fw.yml': "service: app\nprovider:\n  name: aws\ncustom:\n  a: ${env:A, 'unset'}\n", '.env': 'A=1\n' });
  try {
    assert.equal((await loadService({ cwd: folder.dir, env: {} })).config.custom, { a: 'unset' });
  } finally {
    folder.cleanup();
  }
});

service('no service file is an error naming the folder', async () => {
  const folder = tempService({});
  try {
    assert.match(await errorOf(() => loadService({ cwd: folder.dir })), /^No service file in /);
  } finally {
    folder.cleanup();
  }
});

service.run();
