import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { synth } from '../../helpers/synth';
import { arnOf, configErrorOf, withEvents } from './helpers';

const s3 = suite('s3 event');

s3('a bucket name creates the bucket, notifying the function once it may be invoked', () => {
  const t = synth(withEvents('resize', [{ s3: 'photos' }]));
  assert.equal(t.Resources.S3BucketPhotos, {
    Type: 'AWS::S3::Bucket',
    Properties: {
      BucketName: 'photos',
      NotificationConfiguration: { LambdaConfigurations: [{ Event: 's3:ObjectCreated:*', Function: arnOf('Resize') }] },
    },
    DependsOn: ['ResizeLambdaPermissionPhotosS3'],
  });
  assert.equal(t.Resources.ResizeLambdaPermissionPhotosS3, {
    Type: 'AWS::Lambda::Permission',
    Properties: {
      FunctionName: arnOf('Resize'),
      Action: 'lambda:InvokeFunction',
      Principal: 's3.amazonaws.com',
      SourceArn: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::photos']] },
      SourceAccount: { Ref: 'AWS::AccountId' },
    },
  });
});

s3('events of several functions on one bucket merge into it, with filter rules', () => {
  const t = synth({
    functions: {
      a: { handler: 'h.main', events: [{ s3: { bucket: 'photos', event: 's3:ObjectRemoved:*', rules: [{ prefix: 'a/' }, { suffix: '.jpg' }] } }, { s3: 'photos' }] },
      b: { handler: 'h.main', events: [{ s3: { bucket: 'photos', event: 's3:ObjectRestore:Completed' } }] },
    },
  } as never);
  assert.equal(t.Resources.S3BucketPhotos.Properties, {
    BucketName: 'photos',
    NotificationConfiguration: {
      LambdaConfigurations: [
        {
          Event: 's3:ObjectRemoved:*',
          Function: arnOf('A'),
          Filter: { S3Key: { Rules: [{ Name: 'prefix', Value: 'a/' }, { Name: 'suffix', Value: '.jpg' }] } },
        },
        { Event: 's3:ObjectCreated:*', Function: arnOf('A') },
        { Event: 's3:ObjectRestore:Completed', Function: arnOf('B') },
      ],
    },
  });
  assert.equal(t.Resources.S3BucketPhotos.DependsOn, ['ALambdaPermissionPhotosS3', 'ALambdaPermissionPhotosS3', 'BLambdaPermissionPhotosS3']);
});

s3('provider.s3 names and configures the bucket, camelCase properties accepted', () => {
  const t = synth({
    provider: { name: 'aws', runtime: 'nodejs18.x', s3: { bucketOne: { name: 'my-custom-bucket-name', versioningConfiguration: { Status: 'Enabled' } } } },
    ...withEvents('other', [{ s3: 'bucketOne' }]),
  } as never);
  assert.equal(t.Resources.S3BucketBucketOne.Properties, {
    BucketName: 'my-custom-bucket-name',
    NotificationConfiguration: { LambdaConfigurations: [{ Event: 's3:ObjectCreated:*', Function: arnOf('Other') }] },
    VersioningConfiguration: { Status: 'Enabled' },
  });
  assert.equal((t.Resources.OtherLambdaPermissionBucketOneS3.Properties as any).SourceArn, {
    'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::my-custom-bucket-name']],
  });
});

s3('an existing bucket is configured by a custom resource, one per function', () => {
  const t = synth(
    withEvents('users', [
      { s3: { bucket: 'legacy-photos', event: 's3:ObjectCreated:*', rules: [{ prefix: 'uploads/' }], existing: true, forceDeploy: true } },
      { s3: { bucket: 'legacy-photos', event: 's3:ObjectRemoved:*', existing: true } },
    ]),
  );
  assert.equal(t.Resources.UsersCustomS31, {
    Type: 'Custom::S3',
    Version: 1,
    DependsOn: ['UsersLambdaFunction', 'CustomDashresourceDashexistingDashs3LambdaFunction'],
    Properties: {
      ServiceToken: { 'Fn::GetAtt': ['CustomDashresourceDashexistingDashs3LambdaFunction', 'Arn'] },
      FunctionName: 'app-dev-users',
      BucketName: 'legacy-photos',
      BucketConfigs: [
        { Event: 's3:ObjectCreated:*', Rules: [{ Prefix: 'uploads/' }] },
        { Event: 's3:ObjectRemoved:*', Rules: [] },
      ],
      ForceDeploy: 1704067200000,
    },
  });
  assert.is(t.Resources.UsersLambdaPermissionLegacyphotosS3, undefined);
  assert.is(t.Resources.S3BucketLegacyphotos, undefined);
});

s3('refuses two existing buckets on one function', () => {
  assert.is(
    configErrorOf(() =>
      synth(withEvents('users', [{ s3: { bucket: 'legacy-one', existing: true } }, { s3: { bucket: 'legacy-two', existing: true } }])),
    ),
    `Invalid configuration in 'functions.users.events[1].s3.bucket': a function can be notified by one existing bucket only; "users" already uses "legacy-one", got "legacy-two"`,
  );
});

s3('refuses a bucket name S3 would refuse', () => {
  assert.is(
    configErrorOf(() => synth(withEvents('users', [{ s3: 'Photos' }]))),
    `Invalid configuration in 'functions.users.events[0].s3': expected a bucket name of 3 to 63 lower-case letters, digits, dots and dashes (S3's naming rules), got "Photos"`,
  );
  assert.is(
    configErrorOf(() => synth(withEvents('users', [{ s3: { bucket: 'photos', rules: [{ prefix: 3 }] } }]))),
    `Invalid configuration in 'functions.users.events[0].s3.rules[0]': expected { prefix: "…" } or { suffix: "…" } (one rule per list item), got {"prefix":3}`,
  );
});

s3('refuses a rule with both prefix and suffix, of which the reference silently keeps only the prefix', () => {
  assert.is(
    configErrorOf(() => synth(withEvents('users', [{ s3: { bucket: 'photos', rules: [{ prefix: 'a/', suffix: '.jpg' }] } }]))),
    `Invalid configuration in 'functions.users.events[0].s3.rules[0]': expected { prefix: "…" } or { suffix: "…" } (one rule per list item), got {"prefix":"a/","suffix":".jpg"}`,
  );
});

s3('an existing bucket may be an intrinsic, for the custom resource and its role', () => {
  const t = synth(withEvents('users', [{ s3: { bucket: { Ref: 'MyBucket' }, existing: true } }]));
  assert.equal((t.Resources.UsersCustomS31.Properties as any).BucketName, { Ref: 'MyBucket' });
  assert.equal((t.Resources.IamRoleCustomResourcesLambdaExecution.Properties as any).Policies[0].PolicyDocument.Statement[0].Resource, {
    'Fn::Join': [':', ['arn', { Ref: 'AWS::Partition' }, 's3', '', '', { Ref: 'MyBucket' }]],
  });
});

s3.run();
