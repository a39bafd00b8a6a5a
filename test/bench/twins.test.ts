/**
 * The synth bench (bench/realtime.bench.ts) compares RealtimeEndpoint with raw L1s: the comparison is fair only while
 * the raw twin renders what RealtimeEndpoint renders. Both are held to one template here, logical ids aside. Against the
 * alpha the two twins read the same artifact.
 */
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { synthAlpha } from '../../bench/twins/alpha';
import { synthOurs } from '../../bench/twins/ours';
import { synthRaw } from '../../bench/twins/raw';
import { ValidatedTemplate, writeValidationAlone } from '../../bench/twins/validation-alone';

/** The template with every logical id replaced by its position among the resources (R0, R1, ...), DependsOn sorted. */
function byPosition(template: any): unknown {
  const ids = Object.keys(template.Resources);
  const rename = new Map(ids.map((id, i) => [id, `R${i}`]));
  const json = JSON.stringify(template, (_key, value) => {
    if (value && typeof value === 'object' && !Array.isArray(value) && value === template.Resources) {
      return Object.fromEntries(Object.entries(value).map(([id, r]) => [rename.get(id), r]));
    }
    return typeof value === 'string' && rename.has(value) ? rename.get(value) : value;
  });
  // CloudFormation's DependsOn is a set; aws-cdk-lib lists it in logical-id order, which the renaming changes.
  return JSON.parse(json, (key, value) => (key === 'DependsOn' && Array.isArray(value) ? [...value].sort() : value));
}

test('the raw-L1 twin renders the template RealtimeEndpoint renders, but for logical ids', () => {
  // GIVEN / WHEN
  const ours = synthOurs(2) as any;
  const raw = synthRaw(2) as any;
  // THEN
  expect(Object.keys(raw.Resources)).toHaveLength(Object.keys(ours.Resources).length);
  expect(byPosition(raw)).toEqual(byPosition(ours));
});

test('the raw twin with an L2 iam.Role renders the same template as with a CfnRole, but for logical ids', () => {
  // The L2 row of the bench prices that one L2, so it must render nothing the L1 role does not.
  expect(byPosition(synthRaw(2, 'l2'))).toEqual(byPosition(synthRaw(2)));
});

test('through a bucket, our twin reads the artifact the alpha twin reads', () => {
  // The alpha row compares the two on the same input: each model's `model.tar.gz` in one bucket, read as ModelDataUrl.
  const alpha = synthAlpha(2) as any;
  const ours = synthOurs(2, 'bucket') as any;
  const modelDataOf = (template: any) => Object.values(template.Resources)
    .filter((r: any) => r.Type === 'AWS::SageMaker::Model')
    .map((r: any) => JSON.stringify(r.Properties.PrimaryContainer.ModelDataUrl));
  // The alpha writes the object's path-style https URL, ours its S3 URI: both name model-<i>/model.tar.gz in the bucket.
  expect(modelDataOf(alpha)).toEqual([0, 1].map((i) => expect.stringContaining(`/model-artifacts/model-${i}/model.tar.gz`)));
  expect(modelDataOf(ours)).toEqual(['"s3://model-artifacts/model-0/model.tar.gz"', '"s3://model-artifacts/model-1/model.tar.gz"']);
  expect(Object.keys(ours.Resources)).toHaveLength(Object.keys(alpha.Resources).length);
});

describe('the validation-alone templates', () => {
  // The bench prices the model roles' logs and metrics statements by validating edited copies of our template: each
  // copy must differ from ours in those statements only.
  const dir = mkdtempSync(join(tmpdir(), 'validation-alone-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const { templates } = writeValidationAlone(2, dir);
  const read = (t: ValidatedTemplate) => JSON.parse(readFileSync(templates[t], 'utf-8'));
  const ofType = (template: any, type: string): any[] => Object.values(template.Resources).filter((r: any) => r.Type === type);
  const basics = [
    expect.objectContaining({ Action: expect.arrayContaining(['logs:CreateLogStream', 'logs:PutLogEvents']) }),
    expect.objectContaining({ Action: 'cloudwatch:PutMetricData' }),
  ];

  test('without the basics, each role policy loses its logs and metrics statements and nothing else', () => {
    const ours = read('ours');
    const without = read('oursWithoutBasics');
    expect(ofType(ours, 'AWS::IAM::Policy')).toHaveLength(2);
    ofType(ours, 'AWS::IAM::Policy').forEach((policy, i) => {
      const statements = policy.Properties.PolicyDocument.Statement;
      expect(statements.slice(0, 2)).toEqual(basics);
      expect(ofType(without, 'AWS::IAM::Policy')[i].Properties.PolicyDocument.Statement).toEqual(statements.slice(2));
    });
    expect(ofType(without, 'AWS::IAM::Role')).toEqual(ofType(ours, 'AWS::IAM::Role'));
  });

  test('with the basics in one managed policy, every role attaches that policy', () => {
    const shared = read('oursBasicsInOneManagedPolicy');
    const [managed] = ofType(shared, 'AWS::IAM::ManagedPolicy');
    expect(managed.Properties.PolicyDocument.Statement).toEqual(basics);
    expect(ofType(shared, 'AWS::IAM::Role').map((r) => r.Properties.ManagedPolicyArns)).toEqual([[{ Ref: 'ModelRoleBasics' }], [{ Ref: 'ModelRoleBasics' }]]);
    expect(ofType(shared, 'AWS::IAM::Policy')).toEqual(ofType(read('oursWithoutBasics'), 'AWS::IAM::Policy'));
  });
});
