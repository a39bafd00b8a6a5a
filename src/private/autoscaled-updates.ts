/**
 * Internal (not exported from ./index): instance type changes of autoscaled production variants, which Application Auto
 * Scaling refuses in place. Used by the endpoint constructs beside their variant scaling (`./scaling/`).
 */
import { createHash } from 'crypto';
import { Annotations, Stack } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';
import { InstanceType } from '../core/instance-type';

/** An autoscaled variant: its name and instance types (one, or its instance pools' by priority). */
export interface ScaledVariant {
  readonly variantName: string;
  readonly instanceTypes: InstanceType[];
}

/**
 * The endpoint name that lets a CloudFormation update change the instance type of an autoscaled variant: `base`, a
 * hyphen and 8 hex characters of a hash of the autoscaled variants' names and instance types.
 *
 * Application Auto Scaling fails an UpdateEndpoint that changes the instance type of (or removes) a variant registered as
 * a scalable target; AWS says to deregister the target first and register it again after the update
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-scaling-update.html). CloudFormation cannot order that in one
 * deployment: it creates and updates first and deletes replaced or removed resources only in its final cleanup, so a
 * target whose logical id or variant name changed would still be registered during the endpoint update (and deleting
 * the old target afterwards would deregister the new one, which has the same ResourceId). A new endpoint NAME instead
 * makes CloudFormation create a new endpoint (no target registered on it), register new targets on it (ResourceId
 * `endpoint/<new name>/...`), and delete the old targets and the old endpoint at cleanup: the same order AWS asks for,
 * with the old endpoint serving until then. A variant's instance pools count as its instance types (their order is their
 * priority). Changing a model alone is allowed by Application Auto Scaling, so models are
 * not part of the hash. Token instance types enter the hash in their unresolved form (a parameter's value can change
 * without changing the name: `autoscaledVariantUpdateWarning` says so).
 */
export function scaledEndpointName(scope: IConstruct, base: string, scaled: ReadonlyArray<ScaledVariant>): string {
  const stack = Stack.of(scope);
  const key = [...scaled]
    .sort((a, b) => a.variantName.localeCompare(b.variantName))
    // One type hashes as it always has (names stay put); pools hash as the list of their types by priority.
    .map((x) => `${x.variantName}=${JSON.stringify(stack.resolve(x.instanceTypes.length === 1 ? x.instanceTypes[0].name : x.instanceTypes.map((t) => t.name)))}`)
    .join(',');
  return `${base}-${createHash('sha256').update(key).digest('hex').slice(0, 8)}`;
}

/**
 * Warns, for autoscaled variants, when `scaledEndpointName` cannot protect an instance type change: the endpoint name is
 * fixed (`fixedName`), or an instance type is a token. The message gives AWS's two-step procedure. Call it from a
 * validation hook (`addValidationHook`).
 */
export function autoscaledVariantUpdateWarning(scope: IConstruct, scaled: ReadonlyArray<ScaledVariant>, fixedName: boolean): void {
  if (scaled.length === 0) return;
  const tokens = scaled.filter((x) => x.instanceTypes.some((t) => t.isUnresolved)).map((x) => x.variantName);
  if (!fixedName && tokens.length === 0) return;
  const names = scaled.map((x) => `${x.variantName} (${x.instanceTypes.map((t) => (t.isUnresolved ? 'a deploy-time instance type' : t.name)).join(', ')})`).join(', ');
  const why = fixedName
    ? 'endpointName is fixed, so the endpoint cannot be replaced to take the new type'
    : `the instance type of ${tokens.join(', ')} is resolved at deploy time, so its change does not rename (replace) the endpoint`;
  Annotations.of(scope).addWarningV2('cdk-sagemaker-mcp:autoscaledVariantUpdate',
    `autoscaled variant${scaled.length === 1 ? '' : 's'} ${names}: an update that changes the instance type of an autoscaled variant, or removes it, `
    + `fails (Application Auto Scaling refuses it while the variant is a scalable target), and ${why}. `
    + 'Change such a variant in two deployments: first without its autoScaling (CloudFormation deregisters the target), '
    + 'then with the new instance type and autoScaling back (the target is registered after the endpoint update). '
    + 'See https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-scaling-update.html');
}
