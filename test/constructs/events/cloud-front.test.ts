import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../../src/errors';
import type { ServiceConfig } from '../../../src/constructs/model';
import { Service } from '../../../src/constructs/service';
import type { Template } from '../../../src/synth/template';
import { synthesize } from '../../../src/constructs/synthesize';
import { ARTIFACT_DIR, synth, versionId } from '../../helpers/synth';

const cloudFront = suite('cloudFront event');

function errorOf(config: Partial<ServiceConfig>): string {
  try {
    synth(config);
  } catch (error) {
    assert.instance(error, ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}
const distribution = (t: Template) => (t.Resources.CloudFrontDistribution.Properties as any).DistributionConfig;

cloudFront('an event makes the function a Lambda@Edge function behind the default behavior', () => {
  const t = synth({ functions: { edge: { handler: 'h.e', events: [{ cloudFront: { eventType: 'viewer-response', origin: 's3://bucket.s3.amazonaws.com/files' } }] } } });
  const version = versionId(t, 'Edge')!;
  assert.equal(distribution(t), {
    Comment: 'app dev',
    Enabled: true,
    DefaultCacheBehavior: {
      ViewerProtocolPolicy: 'allow-all',
      CachePolicyId: '658327ea-f89d-4fab-a63d-7e88639e58f6',
      TargetOriginId: 's3/bucket.s3.amazonaws.com/files',
      LambdaFunctionAssociations: [{ EventType: 'viewer-response', LambdaFunctionARN: { Ref: version } }],
    },
    Origins: [{ DomainName: 'bucket.s3.amazonaws.com', OriginPath: '/files', S3OriginConfig: {}, Id: 's3/bucket.s3.amazonaws.com/files' }],
  });
  assert.equal(t.Resources.EdgeLambdaFunctionInvokePermission, {
    Type: 'AWS::Lambda::Permission',
    Properties: {
      FunctionName: { Ref: version },
      Action: 'lambda:InvokeFunction',
      Principal: 'edgelambda.amazonaws.com',
      SourceArn: {
        'Fn::Join': ['', ['', 'arn:', { Ref: 'AWS::Partition' }, ':cloudfront::', { Ref: 'AWS::AccountId' }, ':distribution/', { Ref: 'CloudFrontDistribution' }]],
      },
    },
  });
  const fn = t.Resources.EdgeLambdaFunction as any;
  assert.equal([fn.Properties.MemorySize, fn.Properties.Timeout, fn.DeletionPolicy], [128, 5, 'Retain']);
  const role = t.Resources.IamRoleLambdaExecution.Properties as any;
  assert.equal(role.AssumeRolePolicyDocument.Statement[0].Principal.Service, ['lambda.amazonaws.com', 'edgelambda.amazonaws.com']);
  assert.equal(role.Policies[0].PolicyDocument.Statement.slice(2), [
    {
      Effect: 'Allow',
      Action: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents', 'logs:TagResource'],
      Resource: [{ 'Fn::Sub': 'arn:${AWS::Partition}:logs:*:*:*' }],
    },
  ]);
  assert.equal(Object.keys(t.Outputs!).filter(key => key.startsWith('CloudFront')), ['CloudFrontDistribution', 'CloudFrontDistributionDomainName']);
});

cloudFront('events on one path pattern share a behavior; path patterns get their own, with a default origin', () => {
  const t = synth({
    provider: { name: 'aws', runtime: 'nodejs18.x', cloudFront: { cachePolicies: { myPolicy: { MinTTL: 0 } } } } as ServiceConfig['provider'],
    functions: {
      a: { handler: 'h.a', events: [{ cloudFront: { eventType: 'viewer-request', origin: 's3://one.s3.amazonaws.com', pathPattern: '/a*', isDefaultOrigin: true } }] },
      b: {
        handler: 'h.b',
        memorySize: 256,
        events: [{ cloudFront: { eventType: 'origin-request', includeBody: true, origin: 'https://example.com/site', pathPattern: '/b*', cachePolicy: { name: 'myPolicy' } } }],
      },
    },
  });
  const config = distribution(t);
  assert.equal(config.DefaultCacheBehavior, {
    ViewerProtocolPolicy: 'allow-all',
    CachePolicyId: '658327ea-f89d-4fab-a63d-7e88639e58f6',
    TargetOriginId: 's3/one.s3.amazonaws.com',
  });
  assert.equal(config.Origins[1], { DomainName: 'example.com', OriginPath: '/site', CustomOriginConfig: { OriginProtocolPolicy: 'match-viewer' }, Id: 'custom/example.com/site' });
  assert.equal(config.CacheBehaviors[1], {
    ViewerProtocolPolicy: 'allow-all',
    CachePolicyId: { Ref: 'CloudFrontCachePolicyMyPolicy' },
    TargetOriginId: 'custom/example.com/site',
    LambdaFunctionAssociations: [{ EventType: 'origin-request', LambdaFunctionARN: { Ref: versionId(t, 'B') }, IncludeBody: true }],
    PathPattern: '/b*',
  });
  assert.equal(t.Resources.CloudFrontCachePolicyMyPolicy, {
    Type: 'AWS::CloudFront::CachePolicy',
    Properties: { CachePolicyConfig: { MinTTL: 0, Name: 'app-dev-myPolicy' } },
  });
  assert.equal([(t.Resources.ALambdaFunction.Properties as any).MemorySize, (t.Resources.BLambdaFunction.Properties as any).MemorySize], [128, 256]);
});

cloudFront('versions are published for edge functions even with versionFunctions: false', () => {
  const t = synth({
    provider: { name: 'aws', runtime: 'nodejs18.x', versionFunctions: false },
    functions: { edge: { handler: 'h.e', events: [{ cloudFront: { eventType: 'viewer-request', origin: 's3://b.s3.amazonaws.com' } }] } },
  });
  const version = versionId(t, 'Edge')!;
  assert.ok(version);
  assert.equal(t.Outputs!.EdgeLambdaFunctionQualifiedArn.Value, { Ref: version });
});

cloudFront('a region other than us-east-1 is refused, naming the event', () => {
  const config = {
    service: 'app',
    provider: { name: 'aws', runtime: 'nodejs18.x' },
    functions: { edge: { handler: 'h.e', events: [{ cloudFront: { eventType: 'viewer-request', origin: 's3://b.s3.amazonaws.com' } }] } },
  } as ServiceConfig;
  try {
    synthesize(new Service({ config, stage: 'dev', region: 'eu-west-1', artifactDirectory: ARTIFACT_DIR, instanceId: '1' }));
    assert.unreachable('expected a ConfigError');
  } catch (error) {
    assert.instance(error, ConfigError);
    assert.is(
      (error as Error).message,
      `Invalid configuration in 'functions.edge.events[0].cloudFront': CloudFront associated functions (Lambda@Edge) have to be deployed to the us-east-1 region, but the service deploys to "eu-west-1" (provider.region or --region)`,
    );
  }
});

cloudFront('clashing event types, several origins without a default, unknown cache policies and misplaced includeBody are refused', () => {
  const origin = 's3://b.s3.amazonaws.com';
  assert.match(
    errorOf({
      functions: {
        a: { handler: 'h.a', events: [{ cloudFront: { eventType: 'viewer-request', origin } }] },
        b: { handler: 'h.b', events: [{ cloudFront: { eventType: 'viewer-request', origin } }] },
      },
    }),
    `'functions.b.events[0].cloudFront.eventType': the default behavior already has a viewer-request function`,
  );
  assert.match(
    errorOf({
      functions: {
        a: { handler: 'h.a', events: [{ cloudFront: { eventType: 'viewer-request', origin, pathPattern: '/a' } }] },
        b: { handler: 'h.b', events: [{ cloudFront: { eventType: 'viewer-request', origin: 's3://c.s3.amazonaws.com', pathPattern: '/b' } }] },
      },
    }),
    `mark the origin for the default behavior with "isDefaultOrigin: true"`,
  );
  assert.match(
    errorOf({ functions: { a: { handler: 'h.a', events: [{ cloudFront: { eventType: 'viewer-request', origin, cachePolicy: { name: 'nope' } } }] } } }),
    `'functions.a.events[0].cloudFront.cachePolicy.name': no cache policy named "nope"`,
  );
  assert.match(
    errorOf({ functions: { a: { handler: 'h.a', events: [{ cloudFront: { eventType: 'viewer-response', origin, includeBody: true } }] } } }),
    `'functions.a.events[0].cloudFront.includeBody'`,
  );
  assert.match(errorOf({ functions: { a: { handler: 'h.a', events: [{ cloudFront: { eventType: 'viewer-request' } }] } } }), `'functions.a.events[0].cloudFront.origin'`);
  assert.is(
    errorOf({ functions: { a: { handler: 'h.a', memorySize: 512, events: [{ cloudFront: { eventType: 'viewer-request', origin } }] } } }),
    `Invalid configuration in 'functions.a.memorySize': a viewer-request function (at 'functions.a.events[0].cloudFront') may use at most 128 MB, got 512`,
  );
  assert.match(
    errorOf({ functions: { a: { handler: 'h.a', timeout: 60, events: [{ cloudFront: { eventType: 'origin-request', origin } }] } } }),
    `'functions.a.timeout': an origin-request function`,
  );
});

cloudFront.run();
