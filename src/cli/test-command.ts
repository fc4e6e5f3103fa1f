import { Option } from 'clipanion';
import { CloudCommand } from './cloud-command';

export class TestCommand extends CloudCommand {
  static override paths = [['test']];
  static override usage = CloudCommand.Usage({
    description: 'Run the HTTP tests of serverless.test.yml against the deployed endpoints',
    details: `
      Serverless v3's HTTP tests, without the Dashboard. Each test in serverless.test.yml (next to the
      service file) sends one request: endpoint.method and endpoint.path (a concrete path such as
      /items/1) appended to the deployed API's URL, or the method and path of endpoint.function's first
      http or httpApi event; with request.headers, request.body (an object is sent as JSON) and
      request.form (query parameters). It then checks response.headers, response.status and
      response.body (a string: the exact text; an object: those keys of the JSON body), in that order;
      response: true passes any 2xx. Prints v3's summary; exits 1 when a test fails.
    `,
    examples: [
      ['Run every test against the local cloud', '$0 test --local'],
      ['Run the tests of one function', '$0 test -f hello --stage prod'],
      ['Run one test by name', '$0 test -t "hello returns 200"'],
    ],
  });

  function = Option.String('--function,-f', { description: 'Only the tests whose endpoint.function is this function' });
  test = Option.String('--test,-t', { description: 'Only the test with this name' });
  name = Option.String('--name', { description: 'As --test (the name v3\'s testing guide uses)' });

  async run(): Promise<number> {
    const { existsSync, readFileSync } = require('node:fs') as typeof import('node:fs');
    const { join } = require('node:path') as typeof import('node:path');
    const { ConfigError } = require('../errors') as typeof import('../errors');
    const { parseYaml } = require('../formats/yaml') as typeof import('../formats/yaml');
    const tests = require('../deploy/http-tests') as typeof import('../deploy/http-tests');
    const { info } = require('../api/info') as typeof import('../api/info');
    const file = join(this.serviceDir, tests.TEST_FILE);
    if (!existsSync(file)) throw new ConfigError(`No ${tests.TEST_FILE} in ${this.serviceDir}: fw test runs the HTTP tests it lists`);
    const wantedName = this.test ?? this.name;
    const selected = tests
      .parseHttpTests(parseYaml(readFileSync(file, 'utf8'), file))
      .filter(test => (this.function === undefined || test.endpoint.function === this.function) && (wantedName === undefined || test.name === wantedName));
    if (selected.length === 0) {
      // v3 runs nothing and exits 0 (its summary says 0 passed): a script filtering on a test that went keeps passing, with one line saying so.
      const filters = [this.function !== undefined ? `--function ${this.function}` : '', wantedName !== undefined ? `--test "${wantedName}"` : ''].filter(Boolean).join(' and ');
      this.context.stderr.write(`Warning: no test in ${tests.TEST_FILE} matches ${filters || 'anything: the file lists none'}\n`);
      this.context.stdout.write(tests.formatOutcomes([]));
      return 0;
    }
    const deployed = await info(this.cloudRequest());
    const loaded = await this.loadService();
    const functions = (loaded.config.functions ?? {}) as Parameters<typeof tests.testTarget>[1];
    const apis = { rest: deployed.outputs.ServiceEndpoint, http: deployed.outputs.HttpApiUrl };
    const outcomes = [];
    for (const test of selected) outcomes.push(await tests.runHttpTest(test, tests.testTarget(test, functions, apis)));
    this.context.stdout.write(tests.formatOutcomes(outcomes));
    if (outcomes.every((outcome) => outcome.passed)) return 0;
    this.context.stderr.write('Error: Test run failed\n');
    return 1;
  }
}
