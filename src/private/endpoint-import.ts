/** Internal (not exported from the package): what the realtime and serverless endpoints' `from*` imports return. */
import { Construct } from 'constructs';
import { IOpenAiCompatible, ISageMakerEndpoint, SageMakerEndpointAttributes, SageMakerEndpointBase } from '../core/endpoint-base';

/**
 * An existing realtime or serverless endpoint (both serve the OpenAI-compatible route). The import is a
 * SageMakerEndpointBase, whose `openAiBaseUrl` and `grantInvokeOpenAi` make it IOpenAiCompatible as well.
 */
export function importEndpoint(scope: Construct, id: string, attrs: SageMakerEndpointAttributes): ISageMakerEndpoint & IOpenAiCompatible {
  return SageMakerEndpointBase.fromSageMakerEndpointAttributes(scope, id, attrs) as SageMakerEndpointBase;
}
