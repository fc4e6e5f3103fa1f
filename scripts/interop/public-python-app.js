// A public Python app nobody here wrote, deployed unchanged into the local cloud and driven as its
// README says: Serverless's aws-python-rest-api-with-dynamodb (boto3's DynamoDB resource behind a
// REST API), as the npm package serverless-sam@0.2.0 carries it (scripts/public-apps.js). Its
// functions import boto3, so this needs python3 with boto3: skipped, and said so, without them.
'use strict';

const { hasPython } = require('../bench/servers');
const { publicApp, v3ServiceFile } = require('../public-apps');
const { runLocalFw } = require('./local-fw');

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

/** What `curl --data` sends: the body as a form. */
const CURL_DATA = { 'content-type': 'application/x-www-form-urlencoded' };

async function call(method, url, body) {
  const response = await fetch(url, { method, headers: body === undefined ? {} : CURL_DATA, body });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** PASS/FAIL/SKIP lines for the app, run against the local cloud at `url`. */
async function publicPythonAppChecks(url) {
  const name = 'public app aws-python-rest-api-with-dynamodb (boto3) created, listed, read, updated and deleted todos as its README says';
  if (!hasPython(['boto3'])) return [`SKIP  ${name}: python3 has no boto3 (pip install boto3)`];
  try {
    const { dir } = publicApp('aws-python-rest-api-with-dynamodb');
    const deployed = await runLocalFw(['deploy', '--local', '--config', v3ServiceFile(dir)], dir, new URL(url).port);
    expect(deployed.code === 0, `fw deploy --local failed: ${deployed.stderr.trim()}`);
    const line = deployed.stdout.split('\n').find((text) => /^\s*POST - .*\/todos$/.test(text));
    expect(line, `no POST /todos endpoint in:\n${deployed.stdout}`);
    const todos = line.trim().slice('POST - '.length);
    const created = await call('POST', todos, '{ "text": "Learn Serverless" }');
    expect(created.status === 200 && created.body.text === 'Learn Serverless' && created.body.checked === false, `create answered ${JSON.stringify(created)}`);
    const id = created.body.id;
    const listed = await call('GET', todos);
    expect(listed.status === 200 && JSON.stringify(listed.body.map((todo) => todo.id)) === JSON.stringify([id]), `list answered ${JSON.stringify(listed)}`);
    const read = await call('GET', `${todos}/${id}`);
    expect(read.status === 200 && read.body.id === id, `get answered ${JSON.stringify(read)}`);
    const updated = await call('PUT', `${todos}/${id}`, '{ "text": "Learn Serverless", "checked": true }');
    expect(updated.status === 200 && updated.body.checked === true, `update answered ${JSON.stringify(updated)}`);
    const deleted = await call('DELETE', `${todos}/${id}`);
    expect(deleted.status === 200, `delete answered ${JSON.stringify(deleted)}`);
    const after = await call('GET', todos);
    expect(after.status === 200 && after.body.length === 0, `list after delete answered ${JSON.stringify(after)}`);
    return [`PASS  ${name}`];
  } catch (error) {
    return [`FAIL  ${name}: ${error.message}`];
  }
}

module.exports = { publicPythonAppChecks };
