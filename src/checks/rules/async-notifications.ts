import { SageMakerMcpCheckLevel } from '../check-level';
import { CheckRule, RuleFinding } from '../private/rule';
import { isAbsent, isPlainObject } from '../private/template-view';

/**
 * SNS success and error topics in production, and a failure path to read errors from
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/async-inference-check-predictions.html).
 */
export const asyncNotifications: CheckRule = {
  id: 'SMCP-AS1',
  level: SageMakerMcpCheckLevel.ERROR,
  description: 'An async endpoint config sets NotificationConfig SuccessTopic and ErrorTopic, and S3FailurePath.',
  check: (view) => {
    const out: RuleFinding[] = [];
    for (const config of view.ofType('AWS::SageMaker::EndpointConfig')) {
      const async = config.props.AsyncInferenceConfig;
      if (!isPlainObject(async) || !isPlainObject(async.OutputConfig)) continue;
      const output = async.OutputConfig;
      const notification = isPlainObject(output.NotificationConfig) ? output.NotificationConfig : {};
      if (output.NotificationConfig !== undefined && !isPlainObject(output.NotificationConfig)) continue;
      const missing = [
        isAbsent(notification.SuccessTopic) ? 'NotificationConfig.SuccessTopic' : undefined,
        isAbsent(notification.ErrorTopic) ? 'NotificationConfig.ErrorTopic' : undefined,
        isAbsent(output.S3FailurePath) ? 'S3FailurePath' : undefined,
      ].filter((m) => m !== undefined);
      if (missing.length === 0) continue;
      out.push({
        logicalId: config.logicalId,
        location: 'Properties.AsyncInferenceConfig.OutputConfig',
        message: `Async endpoint config ${config.logicalId} has no AsyncInferenceConfig.OutputConfig.${missing.join(', ')}: `
          + 'set SNS success and error topics so results are pushed rather than polled, and an S3FailurePath so failures can be read.',
      });
    }
    return out;
  },
};
