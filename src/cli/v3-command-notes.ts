/**
 * What each Serverless v3 command is in fw: the table of docs/reference/compatibility.md (written by
 * scripts/docs.js). test/cli/v3-commands-accepted.test.ts checks every command of v3's commands schema
 * has a row, and that the rows saying "not supported" are exactly the commands fw lacks.
 */
export const V3_COMMANDS_IN_FW: ReadonlyArray<{ v3: readonly string[]; fw: string }> = [
  {
    v3: ["serverless deploy"],
    fw: "same; `-f NAME` is `deploy function`; `--conceal` hides output values; `--aws-s3-accelerate` enables S3 Transfer Acceleration on the deployment bucket and uploads through it once enabled (on a local or custom endpoint: ignored, one line says so); `--minify-template` uploads the template without whitespace; `--enforce-hash-update` says it has nothing to do (fw's version hashes follow code and configuration)",
  },
  {
    v3: ["serverless deploy function"],
    fw: "same; `--update-config/-u` updates only the configuration; `--force` accepted (fw always compares)",
  },
  {
    v3: ["serverless deploy list"],
    fw: "same: timestamps and files of the stored deployments; an artifact reused from an earlier deployment is shown where it is stored",
  },
  {
    v3: ["serverless deploy list functions"],
    fw: "same: each function's published versions",
  },
  {
    v3: ["serverless info"],
    fw: "same (`--conceal` hides output values)",
  },
  {
    v3: ["serverless invoke"],
    fw: "same options; `--type Event` and `DryRun` print the status Lambda answered",
  },
  {
    v3: ["serverless invoke local"],
    fw: "Node.js in-process, Python through `python3` (the local cloud's runtime); `--docker` is refused",
  },
  {
    v3: ["serverless logs"],
    fw: "same; `--interval` only with `--tail`",
  },
  {
    v3: ["serverless metrics"],
    fw: "a table per function: v3's invocations, throttles, errors, average duration, plus p50 and p99",
  },
  {
    v3: ["serverless remove"],
    fw: "same",
  },
  {
    v3: ["serverless rollback"],
    fw: "same; the redeployed deployment counts as the newest afterwards, so the next `deploy` deploys the files as they are",
  },
  {
    v3: ["serverless rollback function"],
    fw: "same (GetFunction of the version, UpdateFunctionCode)",
  },
  {
    v3: ["serverless package"],
    fw: "same (`--package/-p DIR`, `--minify-template`)",
  },
  {
    v3: ["serverless print"],
    fw: "same (`--format yaml\\|json\\|text`, `--path`, `--transform keys`)",
  },
  {
    v3: ["serverless plugin install"],
    fw: "same (`npm install --save-dev`; YAML keeps its comments; for a JS/TS service file, what to add is printed)",
  },
  {
    v3: ["serverless plugin uninstall"],
    fw: "same",
  },
  {
    v3: ["serverless plugin list"],
    fw: "from a list of common plugins shipped with fw (`src/cli/known-plugins.json`), not the plugin registry: no network",
  },
  {
    v3: ["serverless plugin search"],
    fw: "the same list, searched by name and description",
  },
  {
    v3: ["serverless config"],
    fw: "accepted, nothing to configure (`--autoupdate`: fw is updated with npm)",
  },
  {
    v3: ["serverless config credentials"],
    fw: "same (`--provider aws`, `--key`, `--secret`, `--profile`, `--overwrite`); respects `AWS_SHARED_CREDENTIALS_FILE`; never prints the secret",
  },
  {
    v3: ["serverless create"],
    fw: "fw's own templates (`--template`, `--name`, `--path`); `--template-path DIR` copies a local template folder (without `node_modules`, `.git`, `.serverless`) and renames the service to `--name` in the service file and `package.json`; `--template-url` the same for a local path or `file:` URL \u2014 a remote URL (https, git) needs the network, which fw does not use: it says so, clone it and pass the folder",
  },
  {
    v3: ["serverless doctor"],
    fw: "checks Node.js, AWS credentials' source, the service file and the local cloud (v3 lists stored deprecations; fw prints them when a command runs)",
  },
  {
    v3: ["serverless login", "serverless logout", "serverless dashboard", "serverless slstats"],
    fw: "accepted, one line: fw has no account, dashboard or telemetry",
  },
  {
    v3: ["serverless"],
    fw: "not supported: `fw` alone is the guided creation of a service (v3's onboarding options are not accepted)",
  },
  {
    v3: ["serverless help"],
    fw: "`fw help COMMAND` prints a command's help; v3's options on `help` are not supported",
  },
  {
    v3: ["serverless test"],
    fw: "the HTTP tests of `serverless.test.yml` (v3's Dashboard testing guide's format) against the deployed stage, without the Dashboard; `-f/--function`, `-t/--test` (and the guide's `--name`); see [HTTP tests](../guides/testing-functions.md#http-tests-fw-test)",
  },
  {
    v3: ["serverless output get", "serverless output list"],
    fw: "the deployed stack's outputs (no Serverless Dashboard): `output get --name KEY` prints the value alone (`--service` is fw's compose option here, as on every command)",
  },
  {
    v3: ["serverless param get", "serverless param list"],
    fw: "the service file's `params:` for the stage (`params.<stage>` over `params.default`, `--param` over both, as `${param:\u2026}` reads them; no Serverless Dashboard)",
  },
  {
    v3: ["serverless generate-event"],
    fw: "same types and `-t/--body`; events the local cloud sends (API Gateway, WebSocket, SQS, SNS, S3, DynamoDB and Kinesis streams, EventBridge) are built as it builds them, the others as AWS documents them; see [Sample events](../guides/testing-functions.md#sample-events-fw-generate-event) for where `--body` goes and what differs from v3",
  },
  {
    v3: ["serverless install"],
    fw: "`--url` a local path or `file:` URL: copied into `./<--name>` (default: the folder's name), the service renamed; a remote URL is refused as for `create --template-url`",
  },
];
