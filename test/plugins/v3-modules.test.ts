import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFixture, removeDir, runFw } from './helpers';

/**
 * Plugins that `require` Serverless v3's own modules (`serverless/lib/…`) get fw's answers for the
 * REST API compile steps and stack info; any other v3 module, when no serverless@3 is installed,
 * stops the plugin with one line naming it.
 */
const modules = suite("Serverless v3's own modules, required by plugins");

const SERVICE = `service: mixed
provider:
  name: aws
  runtime: nodejs20.x
plugins:
  - ./plugins/mixin
functions:
  hello:
    handler: handler.hello
`;

/** A plugin mixing v3's REST API steps into itself, as serverless-apigateway-service-proxy does. */
const MIXIN = `'use strict';
const restApi = require('serverless/lib/plugins/aws/package/compile/events/api-gateway/lib/rest-api');
const resources = require('serverless/lib/plugins/aws/package/compile/events/api-gateway/lib/resources.js');
const cors = require('serverless/lib/plugins/aws/package/compile/events/apiGateway/lib/cors');
const deployment = require('serverless/lib/plugins/aws/package/compile/events/api-gateway/lib/deployment');
module.exports = class Mixin {
  constructor(serverless) {
    this.serverless = serverless;
    this.provider = serverless.getProvider('aws');
    this.apiGatewayMethodLogicalIds = [];
    Object.assign(this, restApi, resources, cors, deployment);
    this.hooks = {
      'package:compileEvents': () => {
        this.validated = {
          events: [{ http: { path: '/items/{id}', method: 'put' } }],
          corsPreflight: { 'items/{id}': { headers: ['X-Token'], methods: ['OPTIONS', 'PUT'], origins: ['https://a.example.com'], origin: '*' } },
        };
        this.compileRestApi();
        this.compileResources();
        this.compileCors();
        this.apiGatewayMethodLogicalIds.push('ApiGatewayMethodItemsIdVarPut');
        const template = this.serverless.service.provider.compiledCloudFormationTemplate;
        template.Resources.ApiGatewayMethodItemsIdVarPut = { Type: 'AWS::ApiGateway::Method', Properties: { HttpMethod: 'PUT', ResourceId: this.getResourceId('items/{id}'), RestApiId: { Ref: 'ApiGatewayRestApi' } } };
        this.compileDeployment();
        require('fs').writeFileSync('names.json', JSON.stringify([this.getResourceName('/items/{id}/'), this.getResourceName('/'), this.getResourceId('')]));
      },
    };
  }
};
`;

function serviceWith(plugin: string): string {
  const dir = copyFixture('bad-input');
  writeFileSync(join(dir, 'fw.yml'), SERVICE);
  mkdirSync(join(dir, 'plugins'), { recursive: true });
  writeFileSync(join(dir, 'plugins', 'mixin.js'), plugin);
  return dir;
}

modules('the REST API steps write the API, each path segment, the preflight and the deployment after every method', async () => {
  const dir = serviceWith(MIXIN);
  try {
    const result = await runFw(['package'], dir);
    assert.is(result.code, 0, result.stderr);
    assert.equal(JSON.parse(readFileSync(join(dir, 'names.json'), 'utf8')), ['ItemsIdVar', '', { 'Fn::GetAtt': ['ApiGatewayRestApi', 'RootResourceId'] }]);
    const template = JSON.parse(readFileSync(join(dir, '.serverless', 'cloudformation-template-update-stack.json'), 'utf8'));
    const ids = Object.keys(template.Resources).filter((id) => id.startsWith('ApiGateway'));
    const deployment = ids.find((id) => id.startsWith('ApiGatewayDeployment'))!;
    assert.equal(ids, ['ApiGatewayRestApi', 'ApiGatewayResourceItems', 'ApiGatewayResourceItemsIdVar', 'ApiGatewayMethodItemsIdVarOptions', 'ApiGatewayMethodItemsIdVarPut', deployment]);
    assert.match(deployment, /^ApiGatewayDeployment\d+$/);
    assert.equal(template.Resources.ApiGatewayRestApi, {
      Type: 'AWS::ApiGateway::RestApi',
      Properties: { Name: 'dev-mixed', EndpointConfiguration: { Types: ['EDGE'] }, Policy: '' },
    });
    assert.equal(template.Resources.ApiGatewayResourceItemsIdVar, {
      Type: 'AWS::ApiGateway::Resource',
      Properties: { ParentId: { Ref: 'ApiGatewayResourceItems' }, PathPart: '{id}', RestApiId: { Ref: 'ApiGatewayRestApi' } },
    });
    assert.equal(template.Resources.ApiGatewayMethodItemsIdVarOptions.Properties.Integration.IntegrationResponses, [
      {
        StatusCode: '200',
        ResponseParameters: {
          'method.response.header.Access-Control-Allow-Origin': "'https://a.example.com'",
          'method.response.header.Access-Control-Allow-Headers': "'X-Token'",
          'method.response.header.Access-Control-Allow-Methods': "'OPTIONS,PUT'",
        },
        ResponseTemplates: {
          'application/json':
            '#set($origin = $input.params("Origin"))\n#if($origin == "") #set($origin = $input.params("origin")) #end\n' +
            '#if($origin.matches("https://a[.]example[.]com")) #set($context.responseOverride.header.Access-Control-Allow-Origin = $origin) #end',
        },
      },
    ]);
    assert.equal(template.Resources[deployment], {
      Type: 'AWS::ApiGateway::Deployment',
      Properties: { RestApiId: { Ref: 'ApiGatewayRestApi' }, StageName: 'dev' },
      DependsOn: ['ApiGatewayMethodItemsIdVarOptions', 'ApiGatewayMethodItemsIdVarPut'],
    });
    assert.equal(template.Outputs.ServiceEndpoint.Value, {
      'Fn::Join': ['', ['https://', { Ref: 'ApiGatewayRestApi' }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/dev']],
    });
  } finally {
    removeDir(dir);
  }
});

modules('a v3 module fw does not answer, with no serverless@3 installed, stops the plugin with one line naming it', async () => {
  const dir = serviceWith(`'use strict';\nconst naming = require('serverless/lib/plugins/aws/lib/naming');\nmodule.exports = class Uses { constructor() { this.hooks = {}; } };\n`);
  try {
    const result = await runFw(['package'], dir);
    assert.is(result.code, 1);
    assert.is(
      result.stderr,
      'Error: Plugin "./plugins/mixin" cannot be loaded: it requires "serverless/lib/plugins/aws/lib/naming", a module of Serverless v3 itself ' +
        "that fw does not provide (with serverless@3 installed beside the plugin, v3's own module is used)\n",
    );
  } finally {
    removeDir(dir);
  }
});

modules.run();
