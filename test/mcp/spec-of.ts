/**
 * Where an `McpToolServer` writes its spec in a synthesized template: the `SecretString` of the secret its function's
 * MCP_SERVER_SPEC_SECRET_ARN names, packed (packages/runtime/src/contract/mcp.ts `McpPackedSpec`), with the deploy-time
 * values as intrinsics (`Fn::Join` fragments) for CloudFormation to resolve.
 */
import { MCP_ENV } from 'cdk-sagemaker-mcp-runtime/internal/contract';
import { mcpServerSpecFromSecretText } from 'cdk-sagemaker-mcp-runtime/internal/lambda';

type TemplateJson = { Resources?: Record<string, any> };

/** The MCP server functions of a template (those with a spec secret), by logical ID. */
export function mcpServerFunctions(template: TemplateJson): Array<[string, any]> {
  return Object.entries<any>(template.Resources ?? {})
    .filter(([, r]) => r.Type === 'AWS::Lambda::Function' && r.Properties.Environment?.Variables?.[MCP_ENV.SPEC_SECRET_ARN] !== undefined);
}

/** The spec secret's `SecretString` (as the template holds it) of the MCP server function `fnId`, or of the only one. */
export function specSecretValueOf(template: TemplateJson, fnId?: string): unknown {
  const fns = mcpServerFunctions(template).filter(([id]) => fnId === undefined || id === fnId);
  if (fns.length !== 1) throw new Error(`expected one MCP server function${fnId ? ` '${fnId}'` : ''}, found ${fns.length}`);
  const ref = fns[0][1].Properties.Environment.Variables[MCP_ENV.SPEC_SECRET_ARN];
  const secret = template.Resources![ref?.Ref];
  if (secret?.Type !== 'AWS::SecretsManager::Secret') throw new Error(`${MCP_ENV.SPEC_SECRET_ARN} is not a Ref to a secret: ${JSON.stringify(ref)}`);
  return secret.Properties.SecretString;
}

/** An intrinsic as a readable stand-in for its deploy-time value: `<ref:Id>`, `<att:Id.Attr>`. */
export function placeholder(value: unknown): string {
  if (typeof value === 'string') return value;
  const v = value as Record<string, any>;
  if (v.Ref) return `<ref:${v.Ref}>`;
  if (v['Fn::GetAtt']) return `<att:${[v['Fn::GetAtt']].flat().join('.')}>`;
  if (v['Fn::Join']) return (v['Fn::Join'][1] as unknown[]).map(placeholder).join(v['Fn::Join'][0]);
  if (v['Fn::ImportValue']) return `<import:${String(v['Fn::ImportValue'])}>`;
  throw new Error(`unexpected intrinsic in the spec: ${JSON.stringify(value)}`);
}

/**
 * The spec of the MCP server function `fnId` (or of the only one) as JSON text, unpacked by the runtime as the handler
 * unpacks it; `resolve` stands in for CloudFormation (default: `placeholder`).
 */
export function specTextOf(template: TemplateJson, fnId?: string, resolve: (value: unknown) => string = placeholder): string {
  return JSON.stringify(mcpServerSpecFromSecretText(resolve(specSecretValueOf(template, fnId)), 'the spec secret'));
}
