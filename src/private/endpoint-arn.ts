/**
 * Internal (not exported from the package): the name and lowercase ARN of an endpoint, which every grant is scoped to
 * and every import by name or ARN validates.
 */
import { ArnFormat, Stack, Token } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { PropValidator, SAGEMAKER_NAME_EXPECTED, SAGEMAKER_NAME_PATTERN } from './validation';

/** The variant name SageMaker's tools use for a single-variant endpoint; the default of every endpoint here. */
export const DEFAULT_VARIANT_NAME = 'AllTraffic';

/**
 * The name and (lowercase) ARN of an endpoint imported by name and/or ARN, validated (every kind's `from*` imports).
 */
export function importedEndpointIdentity(
  scope: Construct, id: string, attrs: { readonly endpointName?: string; readonly endpointArn?: string },
): { endpointName: string; endpointArn: string } {
  const v = new PropValidator(`imported endpoint '${id}'`);
  v.check(attrs.endpointName !== undefined || attrs.endpointArn !== undefined, 'endpointName/endpointArn', undefined,
    'at least one of endpointName or endpointArn');
  v.pattern('endpointName', attrs.endpointName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
  let nameFromArn: string | undefined;
  if (attrs.endpointArn !== undefined && !Token.isUnresolved(attrs.endpointArn)) {
    const m = /^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:\d{12}:endpoint\/([a-zA-Z0-9-]{1,63})$/.exec(attrs.endpointArn);
    v.check(m !== null, 'endpointArn', attrs.endpointArn, 'an endpoint ARN such as arn:aws:sagemaker:us-east-1:123456789012:endpoint/my-endpoint');
    nameFromArn = m?.[1];
  }
  v.throwIfInvalid();

  const endpointName = attrs.endpointName
    ?? nameFromArn
    ?? Stack.of(scope).splitArn(attrs.endpointArn!, ArnFormat.SLASH_RESOURCE_NAME).resourceName!;
  const endpointArn = attrs.endpointArn !== undefined
    ? lowercaseEndpointArn(attrs.endpointArn)
    : endpointArnForName(scope, endpointName);
  return { endpointName, endpointArn };
}

/**
 * The ARN of an endpoint by name, lowercased as SageMaker writes it (a mixed-case ARN in a policy fails with
 * AccessDenied). A token name cannot be lowercased at synth time: pass an already-lowercase name or the endpoint's ARN.
 */
export function endpointArnForName(scope: Construct, endpointName: string): string {
  const name = Token.isUnresolved(endpointName) ? endpointName : endpointName.toLowerCase();
  return Stack.of(scope).formatArn({ service: 'sagemaker', resource: 'endpoint', resourceName: name });
}

/** Lowercases the resource part of a literal endpoint ARN; tokens pass unchanged. */
export function lowercaseEndpointArn(arn: string): string {
  if (Token.isUnresolved(arn)) return arn;
  const i = arn.indexOf(':endpoint/');
  return i < 0 ? arn : arn.slice(0, i) + arn.slice(i).toLowerCase();
}

