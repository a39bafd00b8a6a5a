import { SageMakerMcpCheckLevel } from '../check-level';
import { CheckRule, RuleFinding } from '../private/rule';
import { isPlainObject, literalShape } from '../private/template-view';

/** A CloudFormation dynamic reference to a secret: resolved at deploy into the property's value. */
const SECRET_REFERENCE = /\{\{resolve:(secretsmanager|ssm-secure):/;

function containersOf(props: any): Array<[string, any]> {
  const out: Array<[string, any]> = [];
  if (isPlainObject(props.PrimaryContainer)) out.push(['Properties.PrimaryContainer.Environment', props.PrimaryContainer.Environment]);
  if (Array.isArray(props.Containers)) props.Containers.forEach((c: any, i: number) => out.push([`Properties.Containers.${i}.Environment`, c?.Environment]));
  if (isPlainObject(props.Specification?.Container)) out.push(['Properties.Specification.Container.Environment', props.Specification.Container.Environment]);
  // An inference component on an endpoint with instance pools has one entry per instance type, each with its own container.
  if (Array.isArray(props.Specifications)) {
    props.Specifications.forEach((s: any, i: number) => {
      if (isPlainObject(s?.Container)) out.push([`Properties.Specifications.${i}.Container.Environment`, s.Container.Environment]);
    });
  }
  return out;
}

/**
 * No secret resolved into a model's environment. CloudFormation resolves a `{{resolve:secretsmanager:...}}` reference
 * in any property, but "may show the value in the resource's service" (its dynamic-references page,
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/dynamic-references-secretsmanager.html), and the
 * SageMaker API says of a container's environment "Don't include any sensitive data in your environment variables"
 * (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_ContainerDefinition.html): DescribeModel returns it.
 */
export const modelEnvironmentSecrets: CheckRule = {
  id: 'SMCP-SEC1',
  level: SageMakerMcpCheckLevel.WARNING,
  description: 'No SageMaker model or inference component container resolves a secret (a {{resolve:secretsmanager:...}} '
    + 'or {{resolve:ssm-secure:...}} reference) into its environment, where anyone allowed sagemaker:DescribeModel reads it.',
  check: (view) => {
    const out: RuleFinding[] = [];
    for (const r of [...view.ofType('AWS::SageMaker::Model'), ...view.ofType('AWS::SageMaker::InferenceComponent')]) {
      for (const [location, env] of containersOf(r.props)) {
        if (!isPlainObject(env)) continue;
        const names = Object.entries(env).filter(([, v]) => SECRET_REFERENCE.test(literalShape(v) ?? '')).map(([k]) => k);
        if (names.length === 0) continue;
        out.push({
          logicalId: r.logicalId,
          location,
          message: `${r.logicalId} resolves a secret into its container environment (${names.join(', ')}): the value is stored in the `
            + 'SageMaker resource, where anyone allowed sagemaker:DescribeModel (or DescribeInferenceComponent) reads it, and rotating it '
            + 'replaces the model. For a gated Hugging Face model, copy the model to S3 and pass modelData instead of hubToken.',
        });
      }
    }
    return out;
  },
};
