/**
 * The documentation audit's findings, checked on every committed integ snapshot (test/*.integ.snapshot, which
 * `npx projen test` asserts equal to a fresh synth of each integ app). Each check failed on the snapshots of 3c4b617.
 */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

type Json = any;
const TEST_DIR = join(__dirname, '..');
const templates: Array<[string, Json]> = readdirSync(TEST_DIR).filter((d) => d.endsWith('.integ.snapshot')).sort()
  .flatMap((d) => readdirSync(join(TEST_DIR, d)).filter((f) => f.endsWith('.template.json')).map((f) => [d, JSON.parse(readFileSync(join(TEST_DIR, d, f), 'utf8'))] as [string, Json]));

const list = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const ofType = (t: Json, type: string) => Object.entries<Json>(t.Resources).filter(([, r]) => r.Type === type);
const refId = (v: Json): string | undefined => v?.Ref ?? v?.['Fn::GetAtt']?.[0];

/** Identity-policy statements attached to a role (by the role's logical id). */
function statementsOfRole(t: Json, roleId: string): Json[] {
  return [
    ...ofType(t, 'AWS::IAM::Policy').filter(([, p]) => list(p.Properties.Roles).some((r) => refId(r) === roleId))
      .flatMap(([, p]) => list(p.Properties.PolicyDocument.Statement)),
    ...list(t.Resources[roleId]?.Properties?.Policies).flatMap((p: Json) => list(p.PolicyDocument.Statement)),
  ];
}

test('the snapshots are there', () => {
  expect(templates.length).toBeGreaterThanOrEqual(7);
});

test('every blue/green TrafficRoutingConfiguration carries WaitIntervalInSeconds (API_TrafficRoutingConfig: Required)', () => {
  const routings = templates.flatMap(([d, t]) => ofType(t, 'AWS::SageMaker::Endpoint')
    .map(([id, r]) => [`${d} ${id}`, r.Properties.DeploymentConfig?.BlueGreenUpdatePolicy?.TrafficRoutingConfiguration] as const)
    .filter(([, tr]) => tr !== undefined));
  expect(routings.length).toBeGreaterThan(0);
  const valid = (s: unknown) => Number.isInteger(s) && (s as number) >= 0 && (s as number) <= 3600;
  expect(routings.filter(([, tr]) => !valid(tr.WaitIntervalInSeconds)).map(([w]) => w)).toEqual([]);
});

test('the execution role of every endpoint and inference component with rollback alarms may DescribeAlarms on them', () => {
  const missing: string[] = [];
  let checked = 0;
  for (const [d, t] of templates) {
    const subjects: Array<[string, Json, string[]]> = [];
    for (const [id, ep] of ofType(t, 'AWS::SageMaker::Endpoint')) {
      const config = t.Resources[refId(ep.Properties.EndpointConfigName) ?? '']?.Properties;
      const models = list(config?.ProductionVariants).map((v: Json) => t.Resources[refId(v.ModelName) ?? '']).filter(Boolean);
      const roles = models.map((m: Json) => refId(m.Properties.ExecutionRoleArn)).filter((r): r is string => !!r);
      subjects.push([`${d} ${id}`, ep.Properties.DeploymentConfig?.AutoRollbackConfiguration, roles]);
    }
    for (const [id, ic] of ofType(t, 'AWS::SageMaker::InferenceComponent')) {
      const endpoint = t.Resources[refId(ic.Properties.EndpointName) ?? ''];
      const config = t.Resources[refId(endpoint?.Properties.EndpointConfigName) ?? '']?.Properties;
      subjects.push([`${d} ${id}`, ic.Properties.DeploymentConfig?.AutoRollbackConfiguration, [refId(config?.ExecutionRoleArn)].filter((r): r is string => !!r)]);
    }
    for (const [where, rollback, roles] of subjects) {
      const alarms = list(rollback?.Alarms).map((a: Json) => refId(a.AlarmName)).filter((a): a is string => !!a);
      if (alarms.length === 0) continue;
      checked++;
      for (const role of roles) {
        const allowed = statementsOfRole(t, role).filter((s) => s.Effect === 'Allow' && list(s.Action).includes('cloudwatch:DescribeAlarms'))
          .flatMap((s) => list(s.Resource).map(refId));
        for (const alarm of alarms) if (!allowed.includes(alarm)) missing.push(`${where}: role ${role} lacks cloudwatch:DescribeAlarms on ${alarm}`);
      }
    }
  }
  expect(checked).toBeGreaterThan(0);
  expect(missing).toEqual([]);
});

test('every S3 gateway endpoint policy lets image pulls read ECR\'s layer bucket, with no principal condition', () => {
  const gateways = templates.flatMap(([d, t]) => ofType(t, 'AWS::EC2::VPCEndpoint')
    .filter(([, r]) => JSON.stringify(r.Properties.ServiceName).includes('.s3') && r.Properties.VpcEndpointType !== 'Interface')
    .map(([id, r]) => [`${d} ${id}`, list(r.Properties.PolicyDocument?.Statement)] as const));
  expect(gateways.length).toBeGreaterThan(0);
  for (const [where, statements] of gateways) {
    const ecr = statements.filter((s: Json) => s.Effect === 'Allow' && list(s.Action).includes('s3:GetObject') && s.Condition === undefined
      && JSON.stringify(s.Resource).includes('-starport-layer-bucket/*'));
    expect([where, ecr.length]).toEqual([where, 1]);
  }
});

test('every SageMaker role with VPC access has all ten EC2 actions of the host-in-VPC list', () => {
  // https://docs.aws.amazon.com/sagemaker/latest/dg/host-vpc.html
  const HOST_VPC = ['ec2:CreateNetworkInterface', 'ec2:CreateNetworkInterfacePermission', 'ec2:DeleteNetworkInterface', 'ec2:DeleteNetworkInterfacePermission',
    'ec2:DescribeNetworkInterfaces', 'ec2:DescribeVpcs', 'ec2:DescribeDhcpOptions', 'ec2:DescribeSubnets', 'ec2:DescribeSecurityGroups', 'ec2:DescribeVpcEndpoints'];
  let roles = 0;
  for (const [d, t] of templates) {
    for (const [id, role] of ofType(t, 'AWS::IAM::Role')) {
      if (!JSON.stringify(role.Properties.AssumeRolePolicyDocument).includes('sagemaker.amazonaws.com')) continue;
      const actions = statementsOfRole(t, id).flatMap((s) => list(s.Action));
      if (!actions.includes('ec2:CreateNetworkInterface')) continue;
      roles++;
      expect([`${d} ${id}`, HOST_VPC.filter((a) => !actions.includes(a))]).toEqual([`${d} ${id}`, []]);
    }
  }
  expect(roles).toBeGreaterThan(0);
});

test('every AgentCore Gateway accepts the four MCP versions the server and the Gateway both speak', () => {
  const gateways = templates.flatMap(([d, t]) => ofType(t, 'AWS::BedrockAgentCore::Gateway').map(([id, r]) => [`${d} ${id}`, r.Properties.ProtocolConfiguration?.Mcp?.SupportedVersions]));
  expect(gateways.length).toBeGreaterThan(0);
  for (const [where, versions] of gateways) expect([where, versions]).toEqual([where, ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']]);
});

test('the integ snapshots hold an MCP-server Gateway target and a streaming function URL (RESPONSE_STREAM)', () => {
  const targets = templates.flatMap(([d, t]) => ofType(t, 'AWS::BedrockAgentCore::GatewayTarget')
    .filter(([, r]) => r.Properties.TargetConfiguration?.Mcp?.McpServer !== undefined).map(([id]) => `${d} ${id}`));
  expect(targets.length).toBeGreaterThan(0);
  const streamed = templates.flatMap(([d, t]) => ofType(t, 'AWS::Lambda::Url')
    .filter(([, r]) => r.Properties.InvokeMode === 'RESPONSE_STREAM').map(([id]) => `${d} ${id}`));
  expect(streamed.length).toBeGreaterThan(0);
});

test('every MCP-server Gateway target depends on the policy that lets its gateway role call the server (AgentCore lists its tools on create)', () => {
  const checked: string[] = [];
  const missing: string[] = [];
  for (const [d, t] of templates) {
    for (const [id, target] of ofType(t, 'AWS::BedrockAgentCore::GatewayTarget').filter(([, r]) => r.Properties.TargetConfiguration?.Mcp?.McpServer)) {
      const gateway = t.Resources[refId(target.Properties.GatewayIdentifier) ?? ''];
      const roleId = refId(gateway?.Properties?.RoleArn);
      const grants = ofType(t, 'AWS::IAM::Policy').filter(([, p]) => list(p.Properties.Roles).some((r) => refId(r) === roleId)
        && list(p.Properties.PolicyDocument.Statement).some((s: Json) => list(s.Action).includes('lambda:InvokeFunctionUrl')));
      checked.push(`${d} ${id}`);
      if (grants.length === 0 || !grants.every(([policyId]) => list(target.DependsOn).includes(policyId))) missing.push(`${d} ${id}`);
    }
  }
  expect(checked.length).toBeGreaterThan(0);
  expect(missing).toEqual([]);
});

test('the role of every pipeline with a Training step may create training jobs', () => {
  const checked: string[] = [];
  const missing: string[] = [];
  for (const [d, t] of templates) {
    for (const [id, pipeline] of ofType(t, 'AWS::SageMaker::Pipeline')) {
      const body = pipeline.Properties.PipelineDefinition?.PipelineDefinitionBody;
      const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
      if (!/\\?"Type\\?":\\?"Training\\?"/.test(text)) continue;
      checked.push(`${d} ${id}`);
      const statements = statementsOfRole(t, refId(pipeline.Properties.RoleArn) ?? '');
      if (!statements.some((s) => s.Effect === 'Allow' && list(s.Action).includes('sagemaker:CreateTrainingJob'))) missing.push(`${d} ${id}`);
    }
  }
  expect(checked.length).toBeGreaterThanOrEqual(2);
  expect(missing).toEqual([]);
});
