// A `--require` preload for Serverless v3: points the AWS SDK v2 it bundles at one endpoint for
// every service (FW_AWS_ENDPOINT), path-style for S3. scripts/aws-call-goldens.js runs the
// reference with it so that a recorder in front of the local cloud sees every AWS call.
'use strict';

const reference = process.env.FW_REFERENCE_SERVERLESS;
const endpoint = process.env.FW_AWS_ENDPOINT;
if (reference && endpoint) {
  const AWS = require(require.resolve('aws-sdk', { paths: [reference] }));
  AWS.config.update({ endpoint, s3ForcePathStyle: true, maxRetries: 0 });
  // The SDK's end-of-support notice is not the reference's output.
  process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
}
