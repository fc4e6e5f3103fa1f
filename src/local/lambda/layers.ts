/**
 * Lambda layers: versions made by stacks (AWS::Lambda::LayerVersion) and by the API
 * (PublishLayerVersion, GetLayerVersion, GetLayerVersionByArn, ListLayerVersions, ListLayers,
 * DeleteLayerVersion). A version's zip is unpacked once, like a function's code, and kept by
 * Lambda (a copy that outlives the deployment bucket's object); functions that name it run with
 * its files where Lambda puts them under /opt (see runtime/layers-folder.ts).
 */
import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import type { LocalServices } from '../service-interfaces';
import type { ResourceRecord } from '../cloudformation/model';
import { jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { keepCodeZip, materializeCode, materializeZip, versionCodeUrl } from '../runtime/code';
import { readJson, writeJsonAtomic } from '../state/files';

import { LAYER_VERSION_TYPE as LAYER_VERSION } from '../runtime/layers-folder';
import { lambdaRequestBody } from './request-body';
export { LAYER_VERSION };
export const LAYER_SETTINGS = ['Description', 'CompatibleRuntimes', 'CompatibleArchitectures', 'LicenseInfo'] as const;

const notFound = () => new AwsError('ResourceNotFoundException', 'The resource you requested does not exist.', 404);
const invalid = (message: string) => new AwsError('InvalidParameterValueException', message, 400);

/** `2026-11-21T17:40:33.000+0000`, Lambda's date format. */
const lambdaDate = (date = new Date()) => date.toISOString().replace('Z', '+0000');

/**
 * The next version number of a layer. Lambda never gives a number twice, even after a version is
 * deleted, so the last number of each layer is kept in the data folder.
 */
function nextVersion(cloud: Pick<LocalServices, 'dataDir'>, layerArn: string): number {
  const file = join(cloud.dataDir, 'lambda', 'layer-versions.json');
  const last = readJson<Record<string, number>>(file, {});
  last[layerArn] = (last[layerArn] ?? 0) + 1;
  writeJsonAtomic(file, last);
  return last[layerArn];
}

const arn = (region: string, accountId: string, resource: string) => `arn:aws:lambda:${region}:${accountId}:${resource}`;

/** The name part of a LayerName parameter, which may be an ARN. */
export function layerNameOf(value: string): string {
  const match = /^arn:[a-z-]+:lambda:[a-z0-9-]+:\d{12}:layer:([a-zA-Z0-9-_]+)$/.exec(value);
  const name = match ? match[1] : value;
  if (!/^[a-zA-Z0-9-_]{1,140}$/.test(name)) {
    throw invalid(`1 validation error detected: Value '${value}' at 'layerName' failed to satisfy constraint: Member must satisfy regular expression pattern: (arn:[a-zA-Z0-9-]+:lambda:[a-zA-Z0-9-]+:\\d{12}:layer:[a-zA-Z0-9-_]+)|[a-zA-Z0-9-_]+`);
  }
  return name;
}

interface Published {
  physicalId: string;
  attributes: Record<string, unknown>;
}

/** Unpacks a version's content (an object of the local S3, or zip bytes), keeps a copy of its zip and numbers it. */
export function publishLayerVersion(cloud: Pick<LocalServices, 'dataDir' | 's3' | 'accountId'>, region: string, name: string, content: Record<string, unknown> | undefined): Published {
  let zip: Buffer;
  let code: { sha256: string; size: number };
  if (content && typeof content.ZipFile === 'string') {
    zip = Buffer.from(content.ZipFile, 'base64');
    code = materializeZip(cloud.dataDir, zip);
  } else if (content && typeof content.S3Bucket === 'string' && typeof content.S3Key === 'string') {
    code = materializeCode(cloud.dataDir, cloud.s3, content, 'layer');
    zip = cloud.s3.readObject(content.S3Bucket, content.S3Key).data;
  } else {
    throw invalid('Please provide a source for the layer content.');
  }
  const layerArn = arn(region, cloud.accountId, `layer:${name}`);
  const version = nextVersion(cloud, layerArn);
  return {
    physicalId: `${layerArn}:${version}`,
    attributes: { LayerVersionArn: `${layerArn}:${version}`, LayerArn: layerArn, Version: version, CodeSha256: code.sha256, CodeSize: code.size, CreatedDate: lambdaDate(), 'fw:Zip': keepCodeZip(cloud.dataDir, zip) },
  };
}

/** Every layer version the local cloud has: made by stacks and by the API. */
export function layerVersions(cloud: Pick<LocalServices, 'resources'>): ResourceRecord[] {
  return cloud.resources(LAYER_VERSION).map(({ record }) => record);
}

/** The layer version an ARN names, if the local cloud has it. */
export function findLayerVersion(cloud: Pick<LocalServices, 'resources'>, versionArn: string): ResourceRecord | undefined {
  return layerVersions(cloud).find((record) => record.physicalId === versionArn);
}

function describe(cloud: LocalServices, record: ResourceRecord, full: boolean): Record<string, unknown> {
  const { attributes, properties } = record;
  const settings = Object.fromEntries(LAYER_SETTINGS.filter((key) => properties[key] !== undefined).map((key) => [key, properties[key]]));
  return {
    ...(full
      ? {
          Content: { Location: versionCodeUrl(cloud.baseUrl, String(attributes['fw:Zip'])), CodeSha256: attributes.CodeSha256, CodeSize: attributes.CodeSize },
          LayerArn: attributes.LayerArn,
        }
      : {}),
    LayerVersionArn: attributes.LayerVersionArn,
    Description: properties.Description ?? '',
    CreatedDate: attributes.CreatedDate,
    Version: attributes.Version,
    ...settings,
  };
}


/** The versions of one layer, newest first, as ListLayerVersions orders them. */
function versionsOf(cloud: LocalServices, layerArn: string): ResourceRecord[] {
  return layerVersions(cloud)
    .filter((record) => record.attributes.LayerArn === layerArn)
    .sort((a, b) => Number(b.attributes.Version) - Number(a.attributes.Version));
}

/** The layer API (2018-10-31): undefined for other paths. */
export function lambdaLayersApi(cloud: LocalServices, request: LocalRequest): LocalResponse | undefined {
  const match = /^\/2018-10-31\/layers(?:\/([^/]+)\/versions(?:\/([^/]+))?)?\/?$/.exec(request.path);
  if (!match) return undefined;
  const [, encodedName, encodedVersion] = match;
  if (!encodedName) {
    if (request.method !== 'GET') return undefined;
    if (request.search.get('find') === 'LayerVersion') {
      const record = findLayerVersion(cloud, request.search.get('Arn') ?? '');
      if (!record) throw notFound();
      return jsonResponse(describe(cloud, record, true));
    }
    const runtime = request.search.get('CompatibleRuntime');
    const latest = new Map<string, ResourceRecord>();
    for (const record of layerVersions(cloud)) {
      if (runtime && !((record.properties.CompatibleRuntimes as string[] | undefined) ?? []).includes(runtime)) continue;
      const layerArn = String(record.attributes.LayerArn);
      const kept = latest.get(layerArn);
      if (!kept || Number(kept.attributes.Version) < Number(record.attributes.Version)) latest.set(layerArn, record);
    }
    const layers = [...latest.values()].map((record) => ({ LayerName: String(record.attributes.LayerArn).split(':').pop(), LayerArn: record.attributes.LayerArn, LatestMatchingVersion: describe(cloud, record, false) }));
    return jsonResponse({ Layers: layers.sort((a, b) => String(a.LayerName).localeCompare(String(b.LayerName))) });
  }
  const name = layerNameOf(decodeURIComponent(encodedName));
  const layerArn = arn(request.region, cloud.accountId, `layer:${name}`);
  if (encodedVersion === undefined) {
    if (request.method === 'POST') {
      const input = lambdaRequestBody(request);
      const published = publishLayerVersion(cloud, request.region, name, input.Content as Record<string, unknown> | undefined);
      const properties: Record<string, unknown> = { LayerName: name };
      for (const key of LAYER_SETTINGS) if (input[key] !== undefined) properties[key] = input[key];
      const record = cloud.apiResources.add(request.region, LAYER_VERSION, published.physicalId, properties, published.attributes);
      return jsonResponse(describe(cloud, record, true), 201);
    }
    if (request.method === 'GET') return jsonResponse({ LayerVersions: versionsOf(cloud, layerArn).map((record) => describe(cloud, record, false)) });
    return undefined;
  }
  if (!/^\d+$/.test(decodeURIComponent(encodedVersion))) throw invalid(`1 validation error detected: Value '${decodeURIComponent(encodedVersion)}' at 'versionNumber' failed to satisfy constraint: Member must be a number`);
  const versionArn = `${layerArn}:${Number(encodedVersion)}`;
  const record = findLayerVersion(cloud, versionArn);
  if (request.method === 'GET') {
    if (!record) throw notFound();
    return jsonResponse(describe(cloud, record, true));
  }
  if (request.method === 'DELETE') {
    // Deleting a version that is not there succeeds, as on AWS; one a stack made is the stack's to delete.
    if (record && !cloud.apiResources.find(LAYER_VERSION, versionArn)) throw invalid(`Layer version ${versionArn} belongs to a stack: remove it from the template or delete the stack`);
    if (record) cloud.apiResources.remove(LAYER_VERSION, versionArn);
    return { status: 204 };
  }
  return undefined;
}
