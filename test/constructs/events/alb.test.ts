import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { synth } from '../../helpers/synth';
import { configErrorOf, arnOf, properties } from './helpers';

const LISTENER = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:listener/app/my-load-balancer/50dc6c495c0c9188/f2f7dc8efc522ab2';
const alb = suite('alb event');

alb('routes matching requests through a listener rule to the function’s target group', () => {
  const t = synth({ functions: { hello: { handler: 'h.main', events: [{ alb: { listenerArn: LISTENER, priority: 1, conditions: { path: '/hello' } } }] } } });
  assert.equal(t.Resources.HelloAlbTargetGroup50dc6c495c0c9188, {
    Type: 'AWS::ElasticLoadBalancingV2::TargetGroup',
    Properties: {
      TargetType: 'lambda',
      Targets: [{ Id: arnOf('Hello') }],
      Name: '7578da4242196af3956eb328eb89455c',
      Tags: [{ Key: 'Name', Value: 'app-hello-50dc6c495c0c9188-dev' }],
      TargetGroupAttributes: [{ Key: 'lambda.multi_value_headers.enabled', Value: false }],
      HealthCheckEnabled: false,
    },
    DependsOn: ['HelloLambdaPermissionRegisterTarget'],
  });
  assert.equal(t.Resources.HelloAlbListenerRule1, {
    Type: 'AWS::ElasticLoadBalancingV2::ListenerRule',
    Properties: {
      Actions: [{ Type: 'forward', TargetGroupArn: { Ref: 'HelloAlbTargetGroup50dc6c495c0c9188' } }],
      Conditions: [{ Field: 'path-pattern', Values: ['/hello'] }],
      ListenerArn: LISTENER,
      Priority: 1,
    },
  });
  assert.equal(t.Resources.HelloLambdaPermissionAlb, {
    Type: 'AWS::Lambda::Permission',
    Properties: {
      FunctionName: arnOf('Hello'),
      Action: 'lambda:InvokeFunction',
      Principal: 'elasticloadbalancing.amazonaws.com',
      SourceArn: { Ref: 'HelloAlbTargetGroup50dc6c495c0c9188' },
    },
  });
  assert.equal(t.Resources.HelloLambdaPermissionRegisterTarget, {
    Type: 'AWS::Lambda::Permission',
    Properties: { FunctionName: arnOf('Hello'), Action: 'lambda:InvokeFunction', Principal: 'elasticloadbalancing.amazonaws.com' },
  });
});

alb('lists every condition in the listener rule’s fixed order', () => {
  const t = synth({
    functions: {
      hello: {
        handler: 'h.main',
        events: [
          {
            alb: {
              listenerArn: LISTENER,
              priority: 1,
              conditions: {
                ip: '192.168.0.1/0',
                query: { bar: true },
                header: [{ name: 'a', values: ['b'] }, { name: 'c', values: ['d'] }],
                method: ['POST', 'PATCH'],
                host: 'example.com',
                path: ['/a', '/a/*'],
              },
            },
          },
        ],
      },
    },
  });
  assert.equal(properties(t, 'HelloAlbListenerRule1').Conditions, [
    { Field: 'path-pattern', Values: ['/a', '/a/*'] },
    { Field: 'host-header', HostHeaderConfig: { Values: ['example.com'] } },
    { Field: 'http-request-method', HttpRequestMethodConfig: { Values: ['POST', 'PATCH'] } },
    { Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'a', Values: ['b'] } },
    { Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'c', Values: ['d'] } },
    { Field: 'query-string', QueryStringConfig: { Values: [{ Key: 'bar', Value: 'true' }] } },
    { Field: 'source-ip', SourceIpConfig: { Values: ['192.168.0.1/0'] } },
  ]);
});

alb('gives multi-value headers, health checks and explicit names to the target group', () => {
  const t = synth({
    functions: {
      multi: { handler: 'h.main', events: [{ alb: { listenerArn: LISTENER, priority: 1, multiValueHeaders: true, conditions: { path: '/m' } } }] },
      checked: {
        handler: 'h.main',
        events: [{ alb: { listenerArn: LISTENER, priority: 2, targetGroupName: 'named', healthCheck: { path: '/health', matcher: { httpCode: '200,201' } }, conditions: { path: '/c' } } }],
      },
    },
  });
  const multi = properties(t, 'MultiAlbMultiValueTargetGroup50dc6c495c0c9188');
  assert.is(multi.Name, 'e6e16de2ef1b7f532aa5bc4b44d3a80f');
  assert.equal(multi.TargetGroupAttributes, [{ Key: 'lambda.multi_value_headers.enabled', Value: true }]);
  const checked = properties(t, 'CheckedAlbTargetGroup50dc6c495c0c9188');
  assert.equal(
    checked,
    {
      TargetType: 'lambda',
      Targets: [{ Id: arnOf('Checked') }],
      Name: 'named',
      Tags: [{ Key: 'Name', Value: 'app-checked-50dc6c495c0c9188-dev' }],
      TargetGroupAttributes: [{ Key: 'lambda.multi_value_headers.enabled', Value: false }],
      HealthCheckEnabled: true,
      HealthCheckPath: '/health',
      HealthCheckIntervalSeconds: 35,
      HealthCheckTimeoutSeconds: 30,
      HealthyThresholdCount: 5,
      UnhealthyThresholdCount: 5,
      Matcher: { HttpCode: '200,201' },
    },
  );
});

alb('prefixes generated target group names with provider.alb.targetGroupPrefix', () => {
  const t = synth({
    provider: { name: 'aws', alb: { targetGroupPrefix: 'my-prefix' } },
    functions: { hello: { handler: 'h.main', events: [{ alb: { listenerArn: LISTENER, priority: 1, conditions: { path: '/hello' } } }] } },
  });
  assert.is(properties(t, 'HelloAlbTargetGroup50dc6c495c0c9188').Name, 'my-prefix7578da4242196af3956eb32');
});

alb('authenticates with the named authorizers before forwarding', () => {
  const t = synth({
    provider: {
      name: 'aws',
      alb: {
        authorizers: {
          cognito: { type: 'cognito', userPoolArn: 'arn:aws:cognito-idp:us-east-1:1:userpool/p', userPoolClientId: 'c', userPoolDomain: 'd', requestExtraParams: { redirect: false } },
          idp: { type: 'oidc', authorizationEndpoint: 'https://a', clientId: 'id', useExistingClientSecret: true, issuer: 'https://i', tokenEndpoint: 'https://t', userInfoEndpoint: 'https://u', onUnauthenticatedRequest: 'authenticate' },
        },
      },
    },
    functions: { auth: { handler: 'h.main', events: [{ alb: { listenerArn: LISTENER, priority: 1, conditions: { path: '/a' }, authorizer: ['cognito', 'idp'] } }] } },
  });
  assert.equal(properties(t, 'AuthAlbListenerRule1').Actions, [
    {
      Type: 'authenticate-cognito',
      Order: 1,
      AuthenticateCognitoConfig: {
        UserPoolArn: 'arn:aws:cognito-idp:us-east-1:1:userpool/p',
        UserPoolClientId: 'c',
        UserPoolDomain: 'd',
        OnUnauthenticatedRequest: 'deny',
        AuthenticationRequestExtraParams: { redirect: 'false' },
      },
    },
    {
      Type: 'authenticate-oidc',
      Order: 2,
      AuthenticateOidcConfig: {
        AuthorizationEndpoint: 'https://a',
        ClientId: 'id',
        Issuer: 'https://i',
        TokenEndpoint: 'https://t',
        UserInfoEndpoint: 'https://u',
        OnUnauthenticatedRequest: 'authenticate',
        UseExistingClientSecret: true,
      },
    },
    { Type: 'forward', TargetGroupArn: { Ref: 'AuthAlbTargetGroup50dc6c495c0c9188' }, Order: 3 },
  ]);
});

alb('names a referenced listener’s target group after the reference', () => {
  const t = synth({ functions: { hello: { handler: 'h.main', events: [{ alb: { listenerArn: { Ref: 'MyListener' }, priority: 1, conditions: { path: '/' } } }] } } });
  assert.is(properties(t, 'HelloAlbTargetGroupMyListener').Name, '28374191bcf800d1de092fb015ef6418');
});

alb('refuses targetGroupName together with provider.alb.targetGroupPrefix', () => {
  const message = configErrorOf(() =>
    synth({
      provider: { name: 'aws', alb: { targetGroupPrefix: 'p' } },
      functions: { hello: { handler: 'h.main', events: [{ alb: { listenerArn: LISTENER, priority: 1, targetGroupName: 'n', conditions: { path: '/' } } }] } },
    }),
  );
  assert.is(message, `Invalid configuration in 'functions.hello.events[0].alb.targetGroupName': cannot be combined with provider.alb.targetGroupPrefix ("p"); set only one of them`);
});

alb('refuses a priority already used on the listener or by the same function', () => {
  const onListener = configErrorOf(() =>
    synth({
      functions: {
        one: { handler: 'h.main', events: [{ alb: { listenerArn: LISTENER, priority: 1, conditions: { path: '/a' } } }] },
        two: { handler: 'h.main', events: [{ alb: { listenerArn: LISTENER, priority: 1, conditions: { path: '/b' } } }] },
      },
    }),
  );
  assert.is(onListener, `Invalid configuration in 'functions.two.events[0].alb.priority': priority 1 is already used on this listener by 'functions.one.events[0].alb'`);
  const inFunction = configErrorOf(() =>
    synth({
      functions: {
        one: {
          handler: 'h.main',
          events: [
            { alb: { listenerArn: LISTENER, priority: 1, conditions: { path: '/a' } } },
            { alb: { listenerArn: { Ref: 'Other' }, priority: 1, conditions: { path: '/b' } } },
          ],
        },
      },
    }),
  );
  assert.match(inFunction, `'functions.one.events[1].alb.priority': priority 1 is already used by 'functions.one.events[0].alb'`);
});

alb('refuses events sharing a target group with different settings (the reference keeps the last silently)', () => {
  const message = configErrorOf(() =>
    synth({
      functions: {
        one: {
          handler: 'h.main',
          events: [
            { alb: { listenerArn: LISTENER, priority: 1, healthCheck: true, conditions: { path: '/a' } } },
            { alb: { listenerArn: LISTENER, priority: 2, conditions: { path: '/b' } } },
          ],
        },
      },
    }),
  );
  assert.is(
    message,
    `Invalid configuration in 'functions.one.events[1].alb': shares the target group "OneAlbTargetGroup50dc6c495c0c9188" with 'functions.one.events[0].alb' but sets a different targetGroupName or healthCheck; give both events the same settings`,
  );
});

alb('refuses an unknown authorizer and a malformed priority', () => {
  const authorizer = configErrorOf(() =>
    synth({ functions: { one: { handler: 'h.main', events: [{ alb: { listenerArn: LISTENER, priority: 1, conditions: { path: '/' }, authorizer: 'nope' } }] } } }),
  );
  assert.is(authorizer, `Invalid configuration in 'functions.one.events[0].alb.authorizer': no authorizer named "nope" under provider.alb.authorizers`);
  const priority = configErrorOf(() =>
    synth({ functions: { one: { handler: 'h.main', events: [{ alb: { listenerArn: LISTENER, priority: 'first', conditions: { path: '/' } } }] } } }),
  );
  assert.is(priority, `Invalid configuration in 'functions.one.events[0].alb.priority': expected an integer from 1 to 50000, got "first"`);
  const health = configErrorOf(() =>
    synth({ functions: { one: { handler: 'h.main', events: [{ alb: { listenerArn: LISTENER, priority: 1, conditions: { path: '/' }, healthCheck: { intervalSeconds: 1 } } }] } } }),
  );
  assert.is(health, `Invalid configuration in 'functions.one.events[0].alb.healthCheck.intervalSeconds': expected an integer from 5 to 300, got 1`);
});

alb('refuses a rule without conditions, as the reference does', () => {
  const message = configErrorOf(() => synth({ functions: { one: { handler: 'h.main', events: [{ alb: { listenerArn: LISTENER, priority: 1, conditions: {} } }] } } }));
  assert.is(message, `Invalid configuration in 'functions.one.events[0].alb.conditions': expected at least one of path, host, method, header, query, ip, got {}`);
});

alb.run();
