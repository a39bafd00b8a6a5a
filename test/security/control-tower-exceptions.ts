/**
 * The AWS Control Tower proactive controls (the cfn-guard rules bundled in `@cdklabs/cdk-validator-cfnguard`) that the
 * demo app and the integ stacks do not pass, each with the resources it covers and why the control does not fit.
 * control-tower.test.ts fails on any finding not listed here and on any entry that no longer matches a finding;
 * docs/checks.md shows this list as `renderExceptionsTable()` renders it (the test compares them).
 */

export interface ControlTowerException {
  /** The control, as AWS names it: https://docs.aws.amazon.com/controltower/latest/controlreference/proactive-controls.html */
  readonly control: string;
  /** The construct paths (below the stack) of the resources it covers. */
  readonly resources: RegExp;
  /** What the resources are, for the docs. */
  readonly covers: string;
  readonly reason: string;
}

const LIBRARY_BUCKETS = /^(DocProcessor\/Bucket|UserBehaviorFeatures\/OfflineStoreBucket|Operations\/AccessLogs)\/Resource$/;

export const CONTROL_TOWER_EXCEPTIONS: ControlTowerException[] = [
  {
    control: 'CT.S3.PR.9',
    resources: LIBRARY_BUCKETS,
    covers: 'every bucket (async payloads, offline store, access logs)',
    reason: 'Object Lock makes every object version undeletable for its retention period and cannot be turned off once on: '
      + 'async payloads are transient by design (the lifecycle rules expire them), the offline store\'s Iceberg files are '
      + 'deleted by compaction and snapshot expiry (Athena OPTIMIZE / VACUUM), and access logs expire after a year. A bucket of yours with Object Lock can be passed '
      + 'instead (`bucket`, `offlineStore.bucket`, `dataCapture.bucket`).',
  },
  {
    control: 'CT.S3.PR.4',
    resources: LIBRARY_BUCKETS,
    covers: 'every bucket (async payloads, offline store, access logs)',
    reason: 'Nothing in the library consumes S3 object events (async results arrive through SageMaker\'s SNS topics); turn them '
      + 'on where you consume them (`bucket.enableEventBridgeNotification()` or `addEventNotification`).',
  },
  {
    control: 'CT.S3.PR.2',
    resources: /^Operations\/AccessLogs\/Resource$/,
    covers: 'the examples\' access-log bucket',
    reason: 'It is the server access log bucket of the other buckets; logging it into itself would log its own log deliveries.',
  },
  {
    control: 'CT.LAMBDA.PR.3',
    resources: /^(DocProcessor\/Results\/Recorder|TrainingResults\/Handler|McpToolServer\/Resource|ChurnDeployment\/Handler)\/Resource$/,
    covers: 'the bundled functions (async result recorder, pipeline router, MCP server, approved-model deployment)',
    reason: 'The demo and these integ apps give the constructs no VPC, so that they deploy without one; every construct takes '
      + '`vpc` (docs/network.md), and test/vpc.integ.ts runs the same functions in isolated subnets with `SageMakerVpcEndpoints`, '
      + 'where this control passes (the approved-model deployment handler takes the same options but is not in that app).',
  },
  {
    control: 'CT.LAMBDA.PR.3',
    resources: /^StreamingMcpToolServer\/Resource\/Resource$/,
    covers: 'the mcp integ app\'s streaming MCP server (`responseStreaming`)',
    reason: 'Its function URL streams (InvokeMode RESPONSE_STREAM), and Lambda function URLs do not stream from a function in a VPC '
      + '(https://docs.aws.amazon.com/lambda/latest/dg/configuration-response-streaming.html): synth refuses `responseStreaming` with `vpc`.',
  },
];

/** The markdown table docs/checks.md carries (kept identical by control-tower.test.ts). */
export function renderExceptionsTable(): string {
  const rows = CONTROL_TOWER_EXCEPTIONS.map((e) => `| ${e.control} | ${e.covers} | ${e.reason.replace(/\|/g, '\\|')} |`);
  return ['| Control | Resources | Why it does not fit |', '| --- | --- | --- |', ...rows].join('\n');
}
