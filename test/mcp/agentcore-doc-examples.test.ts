/**
 * The TypeScript examples of docs/agentcore.md are complete apps: each is transpiled as written (its
 * `cdk-sagemaker-mcp` import pointed at this repo's sources) and run, and the template it synthesizes is checked.
 * `npx tsc --noEmit -p tsconfig.dev.json` does not see Markdown; the consumer-app test type-checks README blocks.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { IConstruct } from 'constructs';
import * as ts from 'typescript';
import { extractBlocks, isTypeScript } from '../consumer/readme-blocks';

const DOC = join(__dirname, '..', '..', 'docs', 'agentcore.md');
const blocks = extractBlocks(readFileSync(DOC, 'utf8')).filter((b) => isTypeScript(b) && b.mode === 'synth');

/** Runs a block as a CommonJS module and returns the stacks of the apps it created. */
function runBlock(code: string): Stack[] {
  const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const apps: IConstruct[] = [];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const cdk = require('aws-cdk-lib');
  // Each App the block creates is remembered, to read its stacks after the block ran.
  class RecordedApp extends cdk.App {
    constructor(props?: any) { super(props); apps.push(this as unknown as IConstruct); }
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const load = (id: string) => (id === 'cdk-sagemaker-mcp' ? require('../../src') : id === 'aws-cdk-lib' ? { ...cdk, App: RecordedApp } : require(id));
  new Function('require', 'exports', js)(load, {});
  return apps.flatMap((a) => a.node.children.filter((c): c is Stack => Stack.isStack(c)));
}

describe('docs/agentcore.md examples', () => {
  test('every TypeScript block is a complete app (new App, no declare)', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const b of blocks) {
      expect(b.code).toMatch(/new App\(/);
      expect(b.code).not.toMatch(/^declare /m);
    }
  });

  test('the MCP server target example synthesizes a streaming function URL and a target that depends on its grant', () => {
    const block = blocks.find((b) => /McpGatewayTargetKind\.MCP_SERVER/.test(b.code));
    expect(block).toBeDefined();
    const [stack] = runBlock(block!.code);
    const template = Template.fromStack(stack).toJSON();
    const of = (type: string) => Object.entries<any>(template.Resources).filter(([, r]) => r.Type === type);
    expect(of('AWS::Lambda::Url').map(([, r]) => r.Properties.InvokeMode)).toEqual(['RESPONSE_STREAM']);
    const [[, target]] = of('AWS::BedrockAgentCore::GatewayTarget');
    expect(target.Properties.TargetConfiguration.Mcp.McpServer).toBeDefined();
    const [[policyId]] = of('AWS::IAM::Policy').filter(([, p]) => p.Properties.PolicyDocument.Statement.some((s: any) => s.Action === 'lambda:InvokeFunctionUrl'));
    expect(target.DependsOn).toContain(policyId);
  });

  test('the Lambda target example synthesizes', () => {
    const block = blocks.find((b) => !/McpGatewayTargetKind/.test(b.code) && /addToGateway/.test(b.code));
    const [stack] = runBlock(block!.code);
    const targets = Object.values<any>(Template.fromStack(stack).toJSON().Resources).filter((r) => r.Type === 'AWS::BedrockAgentCore::GatewayTarget');
    expect(targets.map((t) => Object.keys(t.Properties.TargetConfiguration.Mcp))).toEqual([['Lambda']]);
  });
});
