// Generates the benchmark services: plain ones with N functions, and one whose
// node_modules holds at least 5,000 files (production and development packages).
// Everything is derived from the arguments: the same call writes the same tree.
'use strict';

const fs = require('fs');
const path = require('path');

function write(file, content, mode) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  if (mode) fs.chmodSync(file, mode);
}

function handlerSource(i) {
  return [
    "'use strict';",
    `const name = 'f${i}';`,
    'exports.handler = async (event) => ({',
    '  statusCode: 200,',
    '  body: JSON.stringify({ name, path: event && event.rawPath }),',
    '});',
    '',
  ].join('\n');
}

function serviceFile(name, functions) {
  const lines = [
    `service: ${name}`,
    "frameworkVersion: '3'",
    'provider:',
    '  name: aws',
    '  runtime: nodejs18.x',
    '  region: us-east-1',
    'functions:',
  ];
  for (let i = 0; i < functions; i++) {
    lines.push(`  f${i}:`, `    handler: src/f${i}.handler`, '    events:', `      - httpApi: 'GET /f${i}'`);
  }
  return `${lines.join('\n')}\n`;
}

/** A service with `functions` functions, one handler file each. */
function functionsService(dir, functions) {
  const name = `bench-${functions}`;
  write(path.join(dir, 'serverless.yml'), serviceFile(name, functions));
  write(path.join(dir, 'package.json'), `${JSON.stringify({ name, version: '1.0.0', private: true }, null, 2)}\n`);
  for (let i = 0; i < functions; i++) write(path.join(dir, 'src', `f${i}.js`), handlerSource(i));
  return dir;
}

/** Some JavaScript of roughly `size` bytes, different per package and file. */
function moduleSource(pkg, file, size) {
  const parts = [`'use strict';\n// ${pkg} ${file}\n`];
  let n = 0;
  while (parts.join('').length < size) {
    parts.push(
      `function ${pkg.replace(/[^a-z0-9]/gi, '_')}_${file}_${n}(input, options) {\n` +
        `  const value = (input || 0) * ${(n * 7919) % 1000} + ${file.length};\n` +
        `  return options && options.verbose ? { value, name: '${pkg}/${file}#${n}' } : value;\n}\n`,
    );
    n++;
  }
  parts.push(`module.exports = { ${Array.from({ length: n }, (_, k) => `${pkg.replace(/[^a-z0-9]/gi, '_')}_${file}_${k}`).join(', ')} };\n`);
  return parts.join('');
}

/**
 * A one-function service whose node_modules has `packages` packages of `filesPerPackage` files:
 * a third are development-only (devDependencies and what only they use), one is shared.
 */
function nodeModulesService(dir, packages = 260, filesPerPackage = 20) {
  const names = Array.from({ length: packages }, (_, i) => (i % 10 === 9 ? `@bench/pkg-${i}` : `pkg-${i}`));
  const dev = new Set(names.filter((_, i) => i % 3 === 2));
  const prod = names.filter((name) => !dev.has(name));
  const devTop = [...dev].filter((_, i) => i % 2 === 0);
  const prodTop = prod.filter((_, i) => i % 2 === 0);
  const dependents = (list) => Object.fromEntries(list.map((name) => [name, '^1.0.0']));
  // each package depends on the next one of the same kind, so the graph has depth
  const next = (list, name) => {
    const i = list.indexOf(name);
    return i >= 0 && i + 1 < list.length ? [list[i + 1]] : [];
  };
  const shared = prod[prod.length - 1];
  write(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: 'bench-modules', version: '1.0.0', private: true, dependencies: dependents(prodTop), devDependencies: dependents(devTop) }, null, 2)}\n`,
  );
  write(path.join(dir, 'serverless.yml'), serviceFile('bench-modules', 1));
  write(path.join(dir, 'src', 'f0.js'), handlerSource(0));
  const devList = [...dev];
  for (const name of names) {
    const isDev = dev.has(name);
    const deps = isDev ? [...next(devList, name), shared] : next(prod, name);
    const root = path.join(dir, 'node_modules', name);
    const manifest = { name, version: '1.0.0', main: 'index.js', dependencies: dependents(deps) };
    if (isDev && names.indexOf(name) % 4 === 0) manifest.bin = { [name.replace('@bench/', '')]: 'bin/cli.js' };
    write(path.join(root, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    for (let f = 1; f < filesPerPackage; f++) {
      const file = f === 1 ? 'index.js' : f < 12 ? `lib/part${f}.js` : `lib/sub/extra${f}.js`;
      const size = 400 + ((names.indexOf(name) * 131 + f * 977) % 5200);
      write(path.join(root, file), moduleSource(name, file, size));
    }
    if (manifest.bin) {
      for (const bin of Object.keys(manifest.bin)) {
        write(path.join(root, 'bin/cli.js'), '#!/usr/bin/env node\nrequire("../index.js");\n', 0o755);
        fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
        fs.symlinkSync(path.join('..', name, 'bin/cli.js'), path.join(dir, 'node_modules', '.bin', bin));
      }
    }
  }
  return dir;
}

function countFiles(dir) {
  let count = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) count += countFiles(path.join(dir, entry.name));
    else count++;
  }
  return count;
}

/** One event of each kind in turn, with names unique to function `i`. */
const MIXED_EVENTS = [
  (i) => [`      - httpApi: 'GET /f${i}/{id}'`],
  (i) => ['      - http:', `          path: f${i}/{id}`, '          method: get', '          cors: true'],
  (i) => [`      - schedule: rate(${i + 1} minutes)`],
  (i) => [`      - sns: topic-${i}`],
  (i) => [`      - sqs: arn:aws:sqs:us-east-1:123456789012:queue-${i}`],
  (i) => [`      - stream: arn:aws:dynamodb:us-east-1:123456789012:table/t${i}/stream/1970-01-01T00:00:00.000`],
  (i) => ['      - s3:', `          bucket: bench-photos-${i}`, '          event: s3:ObjectCreated:*'],
  (i) => ['      - eventBridge:', '          pattern:', '            source:', `              - bench.source${i}`],
  (i) => ['      - cloudwatchEvent:', '          event:', '            source:', `              - aws.ec2`, '            detail-type:', `              - type-${i}`],
  (i) => [`      - cloudwatchLog: /aws/lambda/other-${i}`],
  (i) => ['      - iot:', `          sql: "SELECT * FROM 'topic_${i}'"`],
  (i) => [`      - websocket: route${i}`],
  (i) => ['      - alb:', '          listenerArn: arn:aws:elasticloadbalancing:us-east-1:123456789012:listener/app/lb/50dc6c495c0c9188/f2f7dc8efc522ab2', `          priority: ${i + 1}`, '          conditions:', `            path: /f${i}`],
  (i) => ['      - kafka:', '          accessConfigurations:', '            saslScram512Auth: arn:aws:secretsmanager:us-east-1:01234567890:secret:Secret', `          topic: topic-${i}`, '          bootstrapServers:', '            - abc3.xyz.com:9092'],
  (i) => ['      - msk:', '          arn: arn:aws:kafka:us-east-1:123456789012:cluster/MyCluster/abcd-1234-efgh', `          topic: topic-${i}`],
  (i) => ['      - cognitoUserPool:', `          pool: BenchPool${i}`, '          trigger: PreSignUp'],
  (i) => [`      - alexaSkill: amzn1.ask.skill.bench-${i}`],
];

/** A service with `functions` functions, their events cycling through every kind fw supports. */
function mixedService(dir, functions) {
  const name = `bench-mixed-${functions}`;
  const lines = [`service: ${name}`, "frameworkVersion: '3'", 'provider:', '  name: aws', '  runtime: nodejs18.x', '  region: us-east-1', 'functions:'];
  for (let i = 0; i < functions; i++) {
    lines.push(`  f${i}:`, `    handler: src/f${i}.handler`, '    events:', ...MIXED_EVENTS[i % MIXED_EVENTS.length](i));
  }
  write(path.join(dir, 'serverless.yml'), `${lines.join('\n')}\n`);
  write(path.join(dir, 'package.json'), `${JSON.stringify({ name, version: '1.0.0', private: true }, null, 2)}\n`);
  for (let i = 0; i < functions; i++) write(path.join(dir, 'src', `f${i}.js`), handlerSource(i));
  return dir;
}

module.exports = { functionsService, nodeModulesService, mixedService, countFiles };
