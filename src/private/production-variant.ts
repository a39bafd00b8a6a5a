/**
 * Internal (not exported from the package): validation and CloudFormation rendering of a production variant, shared by
 * the realtime, async and shared-GPU endpoints.
 */
import { Duration, Size, SizeRoundingBehavior } from 'aws-cdk-lib';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { ProductionVariantOptions } from '../core/production-variant';
import { PropValidator, SAGEMAKER_NAME_EXPECTED, SAGEMAKER_NAME_PATTERN } from '../core/validation';

/** Records every problem with a variant's settings on `v`; `prefix` locates the variant in messages. */
export function validateProductionVariant(v: PropValidator, prefix: string, variantName: string, opts: ProductionVariantOptions): void {
  v.pattern(`${prefix}variantName`, variantName, SAGEMAKER_NAME_PATTERN, SAGEMAKER_NAME_EXPECTED, 63);
  // Required by the types; a JavaScript caller (or a cast) can still leave it out, and then gets this, not a TypeError.
  if (!opts.instanceType) v.add(`${prefix}instanceType: got none, expected an InstanceType (e.g. InstanceType.ML_G5_2XLARGE, or the model's defaultInstanceType)`);
  v.atLeast(`${prefix}initialInstanceCount`, opts.initialInstanceCount, 1);
  v.atLeast(`${prefix}initialVariantWeight`, opts.initialVariantWeight, 0, { integer: false });
  v.range(`${prefix}volumeSize`, sizeInGb(opts.volumeSize), 1, 512, { unit: 'GB' });
  v.range(`${prefix}modelDataDownloadTimeout`, seconds(opts.modelDataDownloadTimeout), 60, 3600, { unit: 'seconds' });
  v.range(`${prefix}containerStartupHealthCheckTimeout`, seconds(opts.containerStartupHealthCheckTimeout), 60, 3600, { unit: 'seconds' });
}

/** The CloudFormation ProductionVariant. `modelName` is omitted for inference-component endpoints. */
export function renderProductionVariant(
  variantName: string,
  modelName: string | undefined,
  opts: ProductionVariantOptions,
): sagemaker.CfnEndpointConfig.ProductionVariantProperty {
  return {
    variantName,
    modelName,
    instanceType: opts.instanceType.name,
    initialInstanceCount: opts.initialInstanceCount ?? 1,
    initialVariantWeight: opts.initialVariantWeight ?? 1,
    volumeSizeInGb: sizeInGb(opts.volumeSize),
    modelDataDownloadTimeoutInSeconds: seconds(opts.modelDataDownloadTimeout),
    containerStartupHealthCheckTimeoutInSeconds: seconds(opts.containerStartupHealthCheckTimeout),
  };
}

function sizeInGb(size: Size | undefined): number | undefined {
  // NONE keeps fractions so that validation reports them with the prop's name (FAIL would throw a generic error).
  return size === undefined ? undefined : size.toGibibytes({ rounding: SizeRoundingBehavior.NONE });
}

function seconds(d: Duration | undefined): number | undefined {
  return d === undefined ? undefined : d.toSeconds({ integral: false });
}

