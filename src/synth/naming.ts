/**
 * Every logical id and generated name, as Serverless Framework v3 spells them, so existing
 * `resources` overrides, extensions, `Ref`s and `Fn::GetAtt`s keep working. One file per AWS
 * domain; import them all through this file (`import * as naming from '…/synth/naming'`).
 * Pure functions only.
 */
export * from './naming/normalize';
export * from './naming/service';
export * from './naming/lambda';
export * from './naming/api-gateway';
export * from './naming/http-api';
export * from './naming/websockets';
export * from './naming/s3';
export * from './naming/sns';
export * from './naming/events';
export * from './naming/event-sources';
export * from './naming/cloudwatch-logs';
export * from './naming/custom-resources';
export * from './naming/alb';
export * from './naming/alexa';
export * from './naming/iot';
export * from './naming/cognito';
export * from './naming/cloudfront';
