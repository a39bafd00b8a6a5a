import { SageMakerMcpCheckLevel } from '../check-level';
import { CheckRule, RuleFinding } from '../private/rule';
import { isAbsent, literalString, variantsOf } from '../private/template-view';

/**
 * Instance types whose storage is local NVMe. SageMaker does not encrypt NVMe instance storage with KmsKeyId, and
 * may reject KmsKeyId for them (FACTS §1, unconfirmed), so configs made only of these are exempt.
 */
export const NVME_INSTANCE = /^ml\.(g4dn|g5|g6|g6e|g7|g7e|p3dn|p4d|p4de|p5|p5e|p5en|p6[a-z0-9-]*|trn1|trn1n|trn2|[cmrx]\d+[a-z]*d)\./;

/** KMS by default: an endpoint config encrypts its ML storage volumes with a customer key. */
export const endpointConfigKms: CheckRule = {
  id: 'SMCP-KMS1',
  level: SageMakerMcpCheckLevel.ERROR,
  description: 'An endpoint config sets KmsKeyId, unless all its variants are serverless or on NVMe-storage instance types.',
  check: (view) => {
    const out: RuleFinding[] = [];
    for (const config of view.ofType('AWS::SageMaker::EndpointConfig')) {
      if (!isAbsent(config.props.KmsKeyId)) continue;
      const variants = variantsOf(config);
      const needsKey = variants.filter((v) => {
        if (v.ServerlessConfig !== undefined) return false; // serverless has no ML storage volume to encrypt
        const type = literalString(v.InstanceType);
        return type !== undefined && !NVME_INSTANCE.test(type);
      });
      if (needsKey.length === 0) continue;
      out.push({
        logicalId: config.logicalId,
        location: 'Properties.KmsKeyId',
        message: `Endpoint config ${config.logicalId} has no KmsKeyId although variant(s) ${needsKey.map((v) => `${v.VariantName} (${v.InstanceType})`).join(', ')} `
          + 'attach ML storage volumes: set KmsKeyId to a customer-managed KMS key.',
      });
    }
    return out;
  },
};
