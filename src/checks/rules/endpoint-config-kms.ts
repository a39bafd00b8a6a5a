import { hasLocalNvmeStorage } from '../../private/instance-table';
import { SageMakerMcpCheckLevel } from '../check-level';
import { CheckRule, RuleFinding } from '../private/rule';
import { isAbsent, variantInstanceTypesOf, variantsOf } from '../private/template-view';

/** KMS by default: an endpoint config encrypts its ML storage volumes with a customer key. */
export const endpointConfigKms: CheckRule = {
  id: 'SMCP-KMS1',
  level: SageMakerMcpCheckLevel.ERROR,
  description: 'An endpoint config sets KmsKeyId, unless all its variants are serverless or any is on an NVMe-storage instance type (the API refuses a key then).',
  check: (view) => {
    const out: RuleFinding[] = [];
    for (const config of view.ofType('AWS::SageMaker::EndpointConfig')) {
      if (!isAbsent(config.props.KmsKeyId)) continue;
      const variants = variantsOf(config);
      const types = variants.map(variantInstanceTypesOf);
      if (types.some((own) => own.some(hasLocalNvmeStorage))) continue;
      const needsKey = variants.filter((v, i) => v.ServerlessConfig === undefined && types[i].length > 0); // serverless has no ML storage volume
      if (needsKey.length === 0) continue;
      out.push({
        logicalId: config.logicalId,
        location: 'Properties.KmsKeyId',
        message: `Endpoint config ${config.logicalId} has no KmsKeyId although variant(s) ${needsKey.map((v) => `${v.VariantName} (${variantInstanceTypesOf(v).join(', ')})`).join(', ')} `
          + 'attach ML storage volumes: set KmsKeyId to a customer-managed KMS key.',
      });
    }
    return out;
  },
};
