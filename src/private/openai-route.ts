/**
 * The OpenAI-compatible route SageMaker serves on every real-time endpoint and inference component, in one shape for
 * every construct that exposes it: the base URL, the grant, and the warning for containers AWS does not list as serving
 * it. AWS: "Invoke endpoints with OpenAI-compatible APIs",
 * https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints-openai-compatible.html.
 */
import { Annotations, Stack, Token } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { IConstruct } from 'constructs';
import { IAM_ACTION } from './iam-actions';
import { loadImageCatalog } from './images/catalog';
import { acknowledgeGrantWildcards } from './nag';

/** What the AWS page lists as serving the route ("Supported containers"). */
export const OPENAI_ROUTE_CONTAINERS = 'the SageMaker AI vLLM DLC, the SageMaker AI SGLang DLC, or a custom container implementing '
  + '/v1/chat/completions (SSE streaming) and /ping';

const SERVING_REPOSITORY = /(^|[-_])(vllm|sglang)([-_]|$)/i;

/**
 * `https://runtime.sagemaker.{region}.{urlSuffix}/endpoints/{endpoint}[/inference-components/{ic}]/openai/v1`: the base
 * URL an OpenAI client takes (it appends `/chat/completions`). Tokens stay tokens.
 */
export function openAiBaseUrl(scope: IConstruct, endpointName: string, inferenceComponentName?: string): string {
  const stack = Stack.of(scope);
  const ic = inferenceComponentName === undefined ? '' : `/inference-components/${inferenceComponentName}`;
  return `https://runtime.sagemaker.${stack.region}.${stack.urlSuffix}/endpoints/${endpointName}${ic}/openai/v1`;
}

/**
 * The policy AWS's page gives: `sagemaker:InvokeEndpoint` on the endpoint (and, for a component, on the component too,
 * as `grantInvoke` of a component does), and `sagemaker:CallWithBearerToken` on `*`: "`sagemaker:CallWithBearerToken`
 * requires a wildcard (`"*"`) for the `Resource` field. It does not support resource-level restrictions." Its one
 * condition key, `sagemaker:BearerTokenType`, has no documented values, so no condition is set.
 */
export function grantOpenAiRoute(scope: IConstruct, grantee: iam.IGrantable, invokeArns: string[]): iam.Grant {
  const invoke = iam.Grant.addToPrincipal({ grantee, actions: [IAM_ACTION.sagemaker.InvokeEndpoint], resourceArns: invokeArns });
  const bearer = acknowledgeGrantWildcards(scope, iam.Grant.addToPrincipal({ grantee, actions: [IAM_ACTION.sagemaker.CallWithBearerToken], resourceArns: ['*'] }),
    'sagemaker:CallWithBearerToken supports no resource-level permission: AWS requires "*" for it (https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints-openai-compatible.html)');
  return invoke.combine(bearer);
}

/** How a container image relates to the route: listed by AWS, known not listed, or unknown (a custom image). */
export enum OpenAiRouteSupport { LISTED, NOT_LISTED, UNKNOWN }

/** The ECR repository name of an image URI, when it is literal (`.../{repository}:{tag}` or `@sha256:`). */
function repositoryOf(imageUri: string): string | undefined {
  const m = /\/([a-z0-9._/-]+?)(?::[^/:@]+|@sha256:[a-f0-9]+)?$/i.exec(imageUri);
  if (!m) return undefined;
  const repo = m[1];
  return Token.isUnresolved(repo) || repo.includes('${') ? undefined : repo;
}

let catalogRepositories: Set<string> | undefined;

/** Every repository of the bundled image catalog (TGI, TEI, LMI, vLLM, transformers, XGBoost, ...). */
function knownRepositories(): Set<string> {
  if (!catalogRepositories) {
    const found = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) {node.forEach(walk);} else if (node !== null && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (k === 'repository' && typeof v === 'string') found.add(v);
          else walk(v);
        }
      }
    };
    walk(loadImageCatalog().images);
    catalogRepositories = found;
  }
  return catalogRepositories;
}

/**
 * Whether AWS lists the image's container as serving the route. vLLM and SGLang images are listed; the catalog's other
 * images (TGI, LMI, TEI, transformers, framework images) are not; any other image may be a custom container that
 * implements the path, which AWS supports, so it is unknown.
 */
export function openAiRouteSupport(imageUri: string | undefined): OpenAiRouteSupport {
  const repo = imageUri === undefined ? undefined : repositoryOf(imageUri);
  if (repo === undefined) return OpenAiRouteSupport.UNKNOWN;
  if (SERVING_REPOSITORY.test(repo)) return OpenAiRouteSupport.LISTED;
  return knownRepositories().has(repo) ? OpenAiRouteSupport.NOT_LISTED : OpenAiRouteSupport.UNKNOWN;
}

/** The image each endpoint's (default variant's) or component's model runs, as bound; kept off the public API. */
const modelImages = new WeakMap<IConstruct, string>();

/** Records the image of the model `scope` serves (its `ModelSourceConfig.imageUri`; none for an existing model). */
export function recordModelImage(scope: IConstruct, imageUri: string | undefined): void {
  if (imageUri !== undefined) modelImages.set(scope, imageUri);
}

/** Whether AWS lists the container of the model `scope` serves as serving the route (UNKNOWN for imports). */
export function openAiRouteSupportOf(scope: IConstruct): OpenAiRouteSupport {
  return openAiRouteSupport(modelImages.get(scope));
}

/** Warns when the route is used on a model whose container AWS does not list as serving it. */
export function warnIfRouteNotServed(scope: IConstruct): void {
  const imageUri = modelImages.get(scope);
  if (openAiRouteSupport(imageUri) !== OpenAiRouteSupport.NOT_LISTED) return;
  Annotations.of(scope).addWarningV2('cdk-sagemaker-mcp:openAiRouteContainer',
    `The OpenAI-compatible route (openAiBaseUrl, grantInvokeOpenAi) is used on ${scope.node.path}, whose container `
    + `${repositoryOf(imageUri!)} is not one AWS lists as serving /openai/v1/chat/completions: use ${OPENAI_ROUTE_CONTAINERS} `
    + '(https://docs.aws.amazon.com/sagemaker/latest/dg/realtime-endpoints-openai-compatible.html), or call InvokeEndpoint.');
}
