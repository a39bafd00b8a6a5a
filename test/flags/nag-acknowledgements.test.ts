/**
 * The library's cdk-nag IAM5 acknowledgements key on what a statement grants, so they hold however
 * `@aws-cdk/aws-iam:minimizePolicies` (a `cdk init` flag) merges statements and sorts their actions.
 */
import { wildcardFindingReasons, WildcardReason } from '../../src/private/nag';

const REASONS: WildcardReason[] = [
  { action: /^s3:(PutObject|AbortMultipartUpload)$/, reason: 'writes' },
  { action: /^s3:GetObject$/, reason: 'reads' },
  { action: /^kms:/, reason: 'keys' },
];

test('statements as written and as minimized (merged, actions sorted) get the same acknowledgements', () => {
  // GIVEN the statements as granted
  const written = [
    { Effect: 'Allow', Action: ['s3:PutObject', 's3:AbortMultipartUpload'], Resource: ['arn:b/outputs/*'] },
    { Effect: 'Allow', Action: ['s3:PutObject', 's3:AbortMultipartUpload'], Resource: ['arn:b/failures/*'] },
    { Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:b/inputs/*' },
  ];
  // AND as minimizePolicies renders them: one statement per action set, actions sorted
  const minimized = [
    { Effect: 'Allow', Action: ['s3:AbortMultipartUpload', 's3:PutObject'], Resource: ['arn:b/failures/*', 'arn:b/outputs/*'] },
    { Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:b/inputs/*' },
  ];
  // THEN
  const expected = {
    'AwsSolutions-IAM5[Resource::arn:b/outputs/*]': 'writes',
    'AwsSolutions-IAM5[Resource::arn:b/failures/*]': 'writes',
    'AwsSolutions-IAM5[Resource::arn:b/inputs/*]': 'reads',
  };
  expect(wildcardFindingReasons(written, REASONS)).toEqual(expected);
  expect(wildcardFindingReasons(minimized, REASONS)).toEqual(expected);
});

test('a wildcard resource merged with an action without a reason stays reported', () => {
  const merged = [{ Effect: 'Allow', Action: ['s3:DeleteObject', 's3:PutObject'], Resource: 'arn:b/outputs/*' }];
  expect(wildcardFindingReasons(merged, REASONS)).toEqual({});
});

test('a wildcard resource also granted by another statement without a reason stays reported', () => {
  const statements = [
    { Effect: 'Allow', Action: 's3:PutObject', Resource: 'arn:b/outputs/*' },
    { Effect: 'Allow', Action: 's3:DeleteObject', Resource: 'arn:b/outputs/*' },
  ];
  expect(wildcardFindingReasons(statements, REASONS)).toEqual({});
});

test('a wildcard action is acknowledged by its own reason; merged reasons are joined; Deny is ignored', () => {
  const statements = [
    { Effect: 'Allow', Action: ['kms:GenerateDataKey*', 's3:GetObject'], Resource: 'arn:b/inputs/*' },
    { Effect: 'Allow', Action: 's3:List*', Resource: 'arn:b' },
    { Effect: 'Deny', Action: 's3:PutObject', Resource: 'arn:b/*' },
  ];
  expect(wildcardFindingReasons(statements, REASONS)).toEqual({
    'AwsSolutions-IAM5[Action::kms:GenerateDataKey*]': 'keys',
    'AwsSolutions-IAM5[Resource::arn:b/inputs/*]': 'keys reads',
  });
});
