import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Application, ComposeService } from '../../src/compose/compose-file';
import { dependencyGraph, resolveParams, reversed } from '../../src/compose/dependency-graph';

const service = (name: string, params: Record<string, unknown> = {}, dependsOn: string[] = []): ComposeService => ({ name, dir: `/app/${name}`, params, dependsOn });
const application = (...services: ComposeService[]): Application => ({ file: '/app/fw-compose.yml', dir: '/app', services });

const graph = suite('compose dependency graph');

graph('a service depends on its dependsOn and on the services its params read outputs of, in file order', () => {
  const app = application(
    service('queue'),
    service('table'),
    service('api', { queueUrl: '${queue.QueueUrl}', tables: ['${service:table.TableName}'] }),
    service('web', {}, ['api']),
  );
  const dependencies = dependencyGraph(app);
  assert.equal([...dependencies], [['queue', []], ['table', []], ['api', ['queue', 'table']], ['web', ['api']]]);
  assert.equal([...reversed(dependencies)], [['queue', ['api']], ['table', ['api']], ['api', ['web']], ['web', []]]);
});

graph('a longer cycle is named from where it starts', () => {
  const app = application(service('a', {}, ['b']), service('b', {}, ['c']), service('c', { x: '${a.Out}' }));
  assert.throws(() => dependencyGraph(app), (error: Error) => error.message === 'services a → b → c → a depend on each other');
});

graph('params resolve outputs (both syntaxes, inside text and lists) and ${sls:stage}; other values become JSON', () => {
  const outputs: Record<string, Record<string, string>> = { queue: { QueueUrl: 'http://q/1' }, table: { TableName: 'items' } };
  const api = service('api', { queueUrl: '${queue.QueueUrl}', label: '${service:table.TableName}-${sls:stage}', tables: ['${table.TableName}'], size: 3 });
  assert.equal(resolveParams(api, 'prod', name => outputs[name]), ['queueUrl=http://q/1', 'label=items-prod', 'tables=["items"]', 'size=3']);
});

graph('a variable a compose file cannot resolve is one line naming the param', () => {
  const api = service('api', { token: '${env:TOKEN}' });
  assert.throws(
    () => resolveParams(api, 'dev', () => ({})),
    (error: Error) => error.message === `Invalid configuration in 'services.api.params.token': "\${env:TOKEN}" is not supported in a compose file (only \${<service>.<output>}, \${service:<service>.<output>} and \${sls:stage})`,
  );
});

graph.run();
