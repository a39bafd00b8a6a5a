/**
 * The Control Tower proactive controls (cfn-guard, a binary run in a child process) over an AgentCore Gateway MCP server
 * target of an McpToolServer, as the example app operates it. A slow suite (`npx projen test:slow`): the integ apps and
 * the demo go through the same controls in test/security/control-tower.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { CfnGuardValidator } from '@cdklabs/cdk-validator-cfnguard';
import { App, IPolicyValidationContextBeta1, Stack } from 'aws-cdk-lib';
import * as agentcore from 'aws-cdk-lib/aws-bedrockagentcore';
import { operationsFor } from '../../examples/operations';
import { McpGatewayTargetKind, McpToolServer } from '../../src/mcp';
import { RealtimeEndpoint } from '../../src/realtime';
import { CONTROL_TOWER_EXCEPTIONS } from '../security/control-tower-exceptions';

const ENV = { account: '123456789012', region: 'eu-west-1' };

test('the Control Tower proactive controls find nothing beyond the documented exceptions', () => {
  // GIVEN the server named and operated as in the example app (alarm actions, log retention), so the documented
  // exceptions (test/security) apply by path
  const dir = mkdtempSync(join(tmpdir(), 'ct-mcp-target-'));
  try {
    const app = new App({ outdir: dir });
    const stack = new Stack(app, 'Gw', { env: ENV });
    const ops = operationsFor(stack);
    const server = new McpToolServer(stack, 'McpToolServer', {
      realtimeEndpoints: [{ endpoint: RealtimeEndpoint.fromEndpointName(stack, 'Churn', 'churn-xgb') }],
      alarmActions: ops.alarmActions,
      logRetention: ops.logRetention,
    });
    const gateway = new agentcore.Gateway(stack, 'Gateway', { authorizerConfiguration: agentcore.GatewayAuthorizer.usingAwsIam() });
    server.addToGateway(gateway, { targetKind: McpGatewayTargetKind.MCP_SERVER, responseStreaming: true });
    app.synth();
    // WHEN the cfn-guard rules run over the template
    const templatePaths = readdirSync(dir).filter((f) => f.endsWith('.template.json')).map((f) => join(dir, f));
    const report = new CfnGuardValidator({ maxBuffer: 64 * 1024 * 1024 }).validate({ templatePaths } as unknown as IPolicyValidationContextBeta1);
    const paths = new Map<string, string>();
    for (const [path, entries] of Object.entries<any[]>(JSON.parse(readFileSync(join(dir, 'Gw.metadata.json'), 'utf8')))) {
      for (const e of entries) if (e.type === 'aws:cdk:logicalId') paths.set(e.data, path.replace(/^\/[^/]+\//, ''));
    }
    // THEN each finding is a documented exception (the rule file name gives the control id, e.g. ct-lambda-pr-3)
    const found = report.violations.flatMap((v) => v.violatingResources.map((r) => ({
      rule: v.ruleName,
      path: paths.get(r.resourceLogicalId!) ?? String(r.resourceLogicalId),
    })));
    const undocumented = found
      .filter((f) => !CONTROL_TOWER_EXCEPTIONS.some((e) => e.resources.test(f.path)));
    expect(undocumented).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
