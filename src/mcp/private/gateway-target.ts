import { Annotations, Names, Stack, Token } from 'aws-cdk-lib';
import * as agentcore from 'aws-cdk-lib/aws-bedrockagentcore';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { GATEWAY_TOOL_TEMPLATES, GatewaySchemaNode } from './gateway-tools.generated';
import {
  DEFAULT_HANDLE_TTL_SECONDS, DEFAULT_MAX_EVENT_TIME_SKEW_SECONDS, GATEWAY_MCP_PROTOCOL_VERSIONS, MCP_GATEWAY_ENV, McpServerSpec, MCP_TOOL_NAMES,
} from '../../private/contract.generated';
import { IAM_ACTION } from '../../private/iam-actions';
import { acknowledgeFinding, wildcardFindingIds } from '../../private/nag';
import { addValidationHook, PropValidator } from '../../private/validation';
import { McpGatewayTargetKind, McpGatewayTargetOptions } from '../mcp-gateway-target';

/** AgentCore's target name pattern (aws-cdk-lib `GatewayTarget` checks the same one). */
const TARGET_NAME = /^([0-9a-zA-Z][-]?){1,100}$/;
/** The target names each gateway was given by this library, to refuse a duplicate at synth rather than at deploy. */
const TARGETS_BY_GATEWAY = new WeakMap<object, Set<string>>();
/** The target names each server function answers for (its MCP_GATEWAY_TARGET_NAMES). */
const TARGETS_BY_FUNCTION = new WeakMap<lambda.Function, string[]>();

/** What `{exposed}` stands for in each tool's description: the spec's entries that tool may use. */
function exposedList(tool: string, spec: McpServerSpec): string {
  const line = (name: string, detail: string | undefined, description: string | undefined) =>
    `- ${name}${detail ? ` (${detail})` : ''}${description ? `: ${description}` : ''}`;
  const realtime = spec.realtimeEndpoints ?? [];
  const asyncEndpoints = spec.asyncEndpoints ?? [];
  const groups = (spec.featureGroups ?? []).filter((g) => tool !== MCP_TOOL_NAMES.PUT_FEATURE_RECORD || g.allowWrites);
  switch (tool) {
    case MCP_TOOL_NAMES.INVOKE_ENDPOINT:
      return realtime.map((e) => line(e.name, [
        e.inferenceComponents?.length ? `components: ${e.inferenceComponents.join(', ')}` : undefined,
        e.modelFamily ? `family: ${e.modelFamily}` : undefined,
      ].filter(Boolean).join('; '), e.description)).join('\n');
    case MCP_TOOL_NAMES.DESCRIBE_ENDPOINT:
      return [...realtime, ...asyncEndpoints].map((e) => e.name).join(', ');
    case MCP_TOOL_NAMES.START_ASYNC_INFERENCE:
      return asyncEndpoints.map((e) => line(e.name, undefined, e.description)).join('\n');
    case MCP_TOOL_NAMES.GET_ONLINE_FEATURES:
    case MCP_TOOL_NAMES.PUT_FEATURE_RECORD:
      return groups.map((g) => line(g.schema.featureGroupName,
        `record id: ${g.schema.recordIdentifier}; event time: ${g.schema.eventTime}; features: ${g.schema.features.map((f) => `${f.name}:${f.type}`).join(', ')}`,
        g.description)).join('\n');
    case MCP_TOOL_NAMES.START_TRAINING:
      return (spec.pipelines ?? []).map((p) => line(p.name, `overridable parameters: ${(p.parameters ?? []).join(', ') || 'none'}`, p.description)).join('\n');
    default:
      return '';
  }
}

function toSchemaDefinition(node: GatewaySchemaNode): agentcore.SchemaDefinition {
  return {
    type: agentcore.SchemaDefinitionType.of(node.type),
    description: node.description,
    items: node.items && toSchemaDefinition(node.items),
    properties: node.properties && Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, toSchemaDefinition(v)])),
    required: node.required && [...node.required],
  };
}

/**
 * The Gateway tool definitions of the tools a spec registers, in registration order: input schemas generated from the
 * runtime's zod schemas (src/mcp/private/gateway-tools.generated.ts), descriptions naming what this server exposes.
 */
export function gatewayToolDefinitions(spec: McpServerSpec, toolNames: readonly string[]): agentcore.ToolDefinition[] {
  return toolNames.map((name) => {
    const template = GATEWAY_TOOL_TEMPLATES.find((t) => t.name === name);
    if (!template) throw new Error(`No Gateway tool schema for ${name}: run \`npx projen gateway:tools\``);
    const description = template.description
      .replace('{exposed}', exposedList(name, spec))
      .replace('{maxEventTimeSkewSeconds}', String(spec.maxEventTimeSkewSeconds ?? DEFAULT_MAX_EVENT_TIME_SKEW_SECONDS))
      .replace('{handleTtlSeconds}', String(spec.handleTtlSeconds ?? DEFAULT_HANDLE_TTL_SECONDS));
    return { name, description, inputSchema: toSchemaDefinition(template.inputSchema) };
  });
}

/** What `addMcpToolServerToGateway` needs of the server. */
export interface McpGatewayTargetSource {
  readonly server: Construct;
  readonly serverFunction: lambda.Function;
  readonly spec: McpServerSpec;
  readonly toolNames: readonly string[];
  /** The server's function URL (AWS_IAM); none when an API Gateway replaced it. */
  readonly functionUrl?: lambda.FunctionUrl;
  /** Grants what a SigV4-signing caller of the function URL needs (McpToolServer.grantInvokeUrl). */
  readonly grantInvokeUrl: (grantee: iam.IGrantable) => iam.Grant;
}

/**
 * Internal (McpToolServer.addToGateway): a target of `gateway` for the server. A Lambda target lists the server's tools;
 * it (aws-cdk-lib `GatewayTarget.forLambda`) grants the gateway's role `lambda:InvokeFunction` on this function only,
 * and the function learns the target's name so that its handler answers only tool names of its own targets. An MCP
 * server target points at the function URL (`mcpServerTarget`).
 */
/**
 * A gateway "accepts only the MCP protocol versions listed in the supportedVersions field": warn when it leaves out
 * revisions the bundled server speaks (aws-cdk-lib's default lists 2025-03-26 alone), whose clients it then refuses.
 */
function warnOnMissingProtocolVersions(server: Construct, gateway: agentcore.IGateway): void {
  // (both classes are checked for: the lowest aws-cdk-lib this library supports may predate them)
  if (typeof agentcore.Gateway !== 'function' || typeof agentcore.McpProtocolConfiguration !== 'function') return;
  const protocol = gateway instanceof agentcore.Gateway ? gateway.protocolConfiguration : undefined;
  if (!(protocol instanceof agentcore.McpProtocolConfiguration)) return;
  const listed = (protocol.supportedVersions ?? []).map((v) => v.value);
  const missing = GATEWAY_MCP_PROTOCOL_VERSIONS.filter((v) => !listed.includes(v));
  if (listed.length === 0 || missing.length === 0) return;
  Annotations.of(server).addWarningV2('cdk-sagemaker-mcp:gatewayProtocolVersions',
    `addToGateway: gateway '${gateway.node.path}' lists MCP versions ${listed.join(', ')} only, so it refuses clients on ${missing.join(', ')}, `
    + 'which the server speaks: create it with protocolConfiguration: McpGatewayProtocol.configuration() (every version both support).');
}

export function addMcpToolServerToGateway(
  source: McpGatewayTargetSource,
  gateway: agentcore.IGateway,
  options: McpGatewayTargetOptions = {},
): agentcore.GatewayTarget {
  const { server } = source;
  const v = new PropValidator(`McpToolServer '${server.node.id}': addToGateway`);
  const kind = options.targetKind ?? McpGatewayTargetKind.LAMBDA;
  const targetName = options.targetName ?? server.node.id.replace(/[^0-9a-zA-Z]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 100);
  v.check(!Token.isUnresolved(targetName), 'targetName', targetName, 'a literal name (the function is told it at synth)');
  v.check(Token.isUnresolved(targetName) || TARGET_NAME.test(targetName), 'targetName', targetName,
    'letters, digits and single hyphens between them, 1 to 100 characters');
  const taken = TARGETS_BY_GATEWAY.get(gateway) ?? new Set<string>();
  v.check(!taken.has(targetName), 'targetName', targetName, `a name no other target of gateway '${gateway.node.path}' has (pass targetName)`);
  v.throwIfInvalid();
  taken.add(targetName);
  TARGETS_BY_GATEWAY.set(gateway, taken);
  warnOnMissingProtocolVersions(server, gateway);

  // One server may front several gateways under the same target name: the construct id then names the gateway too.
  const id = server.node.tryFindChild(`GatewayTarget-${targetName}`) ? `GatewayTarget-${targetName}-${Names.uniqueId(gateway)}` : `GatewayTarget-${targetName}`;
  const common = { gateway, gatewayTargetName: targetName, description: options.description ?? `SageMaker tools of ${server.node.path}` };
  const target = kind === McpGatewayTargetKind.MCP_SERVER
    ? mcpServerTarget(source, id, common)
    : lambdaTarget(source, id, common);
  if (options.responseStreaming !== undefined) enableGatewayStreaming(gateway, options.responseStreaming);
  return target;
}

type CommonTargetProps = Pick<agentcore.GatewayTargetMcpServerProps, 'gateway' | 'gatewayTargetName' | 'description'>;

function lambdaTarget(source: McpGatewayTargetSource, id: string, common: CommonTargetProps): agentcore.GatewayTarget {
  const { server, serverFunction } = source;
  const target = agentcore.GatewayTarget.forLambda(server, id, {
    ...common,
    lambdaFunction: serverFunction,
    toolSchema: agentcore.ToolSchema.fromInline(gatewayToolDefinitions(source.spec, source.toolNames)),
  });
  acknowledgeInvokeWildcard(server, common.gateway, serverFunction);
  // lambda.Function offers no read of its environment: the names given so far are kept beside it.
  const names = [...(TARGETS_BY_FUNCTION.get(serverFunction) ?? []), common.gatewayTargetName!];
  TARGETS_BY_FUNCTION.set(serverFunction, names);
  serverFunction.addEnvironment(MCP_GATEWAY_ENV.TARGET_NAMES, JSON.stringify(names));
  return target;
}

/**
 * An MCP server target at the function URL, the gateway signing with its own role (outbound auth GATEWAY_IAM_ROLE,
 * https://docs.aws.amazon.com/bedrock-agentcore/latest/devguide/gateway-outbound-auth.html) for service `lambda` in the
 * stack's region. The signing service is written on the L1 (`IamCredentialProvider`): aws-cdk-lib takes it in
 * `GatewayCredentialProvider.fromIamRole({ service })` only from 2.262.0, above this library's floor (2.258.0), whose
 * `fromIamRole()` takes no argument. The role gets what AWS documents for an IAM-authenticated function URL
 * (https://docs.aws.amazon.com/lambda/latest/dg/urls-auth.html): `lambda:InvokeFunctionUrl` and
 * `lambda:InvokeFunction` via the URL, on this function only, and the target depends on that grant.
 */
function mcpServerTarget(source: McpGatewayTargetSource, id: string, common: CommonTargetProps): agentcore.GatewayTarget {
  const { server, functionUrl } = source;
  if (!functionUrl) {
    throw new Error(`McpToolServer '${server.node.id}': addToGateway: targetKind: got MCP_SERVER, expected a server with a function URL `
      + '(apiGateway replaces it: set apiGateway.keepFunctionUrl, or use targetKind LAMBDA)');
  }
  const target = agentcore.GatewayTarget.forMcpServer(server, id, {
    ...common,
    // The server answers on any path; /mcp is the one its docs give clients.
    endpoint: `${functionUrl.url}mcp`,
    credentialProviderConfigurations: [agentcore.GatewayCredentialProvider.fromIamRole()],
  });
  const cfn = target.node.defaultChild as agentcore.CfnGatewayTarget;
  cfn.addPropertyOverride('CredentialProviderConfigurations.0.CredentialProvider.IamCredentialProvider', {
    Service: 'lambda',
    Region: Stack.of(server).region,
  });
  // AgentCore lists the server's tools (tools/list) while it creates the target, signed with the gateway role: the
  // role's policy must exist first, or creation meets a 403.
  source.grantInvokeUrl(common.gateway.role).applyBefore(target);
  return target;
}

/** The gateway's MCP response streaming (CloudFormation `ProtocolConfiguration.Mcp.StreamingConfiguration`). */
function enableGatewayStreaming(gateway: agentcore.IGateway, enable: boolean): void {
  const cfn = gateway.node.defaultChild;
  if (!(cfn instanceof agentcore.CfnGateway)) {
    throw new Error(`addToGateway: responseStreaming: got ${enable} for gateway '${gateway.node.path}', expected a gateway created in this app `
      + '(an imported gateway\'s protocol configuration is not changed here)');
  }
  cfn.addPropertyOverride('ProtocolConfiguration.Mcp.StreamingConfiguration.EnableResponseStreaming', enable);
}

/**
 * The target's `lambdaFunction.grantInvoke(gateway.role)` (aws-cdk-lib) writes `lambda:InvokeFunction` on the function
 * and on `<function arn>:*` (its versions and aliases) into the gateway role's DefaultPolicy; cdk-nag reports the second.
 * Exactly that finding is acknowledged, at synth when the policy exists; other statements of the role stay reported.
 */
function acknowledgeInvokeWildcard(scope: Construct, gateway: agentcore.IGateway, fn: lambda.Function): void {
  addValidationHook(scope, () => {
    const cfn = gateway.role.node.tryFindChild('DefaultPolicy')?.node.tryFindChild('Resource');
    if (!(cfn instanceof iam.CfnPolicy)) return [];
    const statement = Stack.of(cfn).resolve({ Action: IAM_ACTION.lambda.InvokeFunction, Resource: [fn.functionArn, `${fn.functionArn}:*`] });
    for (const id of wildcardFindingIds(statement)) {
      acknowledgeFinding(cfn, `AwsSolutions-IAM5[${id}]`, 'The AgentCore Gateway invokes the MCP tool server function only; '
        + 'aws-cdk-lib\'s grantInvoke also names its versions and aliases (<function arn>:*), as the AgentCore guide\'s policy does.');
    }
    return [];
  });
}
