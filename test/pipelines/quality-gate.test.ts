import * as fs from 'fs';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { PipelineDefinition, PipelineQualityGate, TrainingPipeline } from '../../src/pipelines';

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
const GATED = path.join(EXAMPLES, 'pipeline-quality-gate.json');
const REPORT = path.join(EXAMPLES, 'evaluation-report.json');

function gated(): Record<string, any> {
  return JSON.parse(fs.readFileSync(GATED, 'utf8'));
}

function report(): Record<string, any> {
  return JSON.parse(fs.readFileSync(REPORT, 'utf8'));
}

function synth(definition: Record<string, any>): TrainingPipeline {
  const stack = new Stack(new App(), 'Stack', { env: { account: '123456789012', region: 'us-east-1' } });
  const role = new iam.Role(stack, 'Role', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
  return new TrainingPipeline(stack, 'Gate', {
    definition: PipelineDefinition.fromObject(definition),
    role,
    trainingJobRole: { outputs: [{ bucket: s3.Bucket.fromBucketName(stack, 'Data', 'example-training-data'), prefix: 'churn/' }] },
  });
}

const step = (d: Record<string, any>, name: string) => d.Steps.find((s: any) => s.Name === name);
const gate = (d: Record<string, any>) => step(d, 'AccuracyGate').Arguments.Conditions[0];
const jsonGet = (d: Record<string, any>) => gate(d).LeftValue['Std:JsonGet'];

describe('TrainingPipeline: the quality gate is checked at synth', () => {
  test('the examples pass: the gated definition and the plain training one', () => {
    expect(() => synth(gated())).not.toThrow();
    expect(() => synth(JSON.parse(fs.readFileSync(path.join(EXAMPLES, 'pipeline-definition.json'), 'utf8')))).not.toThrow();
    expect(PipelineDefinition.fromFile(GATED)._jsonGets().jsonGets).toHaveLength(1);
  });

  test('fails if the JsonGet names a step that does not exist, naming the step that declares the file', () => {
    const d = gated();
    jsonGet(d).PropertyFile.Get = 'Steps.Evaluate.PropertyFiles.EvaluationReport';
    expect(() => synth(d)).toThrow("definition: step 'AccuracyGate' Arguments.Conditions[0].LeftValue: Std:JsonGet "
      + 'Steps.Evaluate.PropertyFiles.EvaluationReport "binary_classification_metrics.accuracy.value": no step is named \'Evaluate\', '
      + "expected the Processing step that declares PropertyFile 'EvaluationReport' (declared by step 'EvaluateModel')");
  });

  test('fails if the step declares no such PropertyFile (missing, or declared on an unrelated step)', () => {
    const missing = gated();
    delete step(missing, 'EvaluateModel').PropertyFiles;
    expect(() => synth(missing)).toThrow("step 'EvaluateModel' (Processing) declares no PropertyFile 'EvaluationReport', expected a Processing step that lists it in PropertyFiles");

    const unrelated = gated();
    jsonGet(unrelated).PropertyFile.Get = 'Steps.TrainModel.PropertyFiles.EvaluationReport';
    expect(() => synth(unrelated)).toThrow("step 'TrainModel' (Training) declares no PropertyFile 'EvaluationReport', "
      + "expected a Processing step that lists it in PropertyFiles (declared by step 'EvaluateModel')");
  });

  test('fails if the PropertyFile names an output the Processing step does not have', () => {
    const d = gated();
    step(d, 'EvaluateModel').PropertyFiles[0].OutputName = 'metrics';
    expect(() => synth(d)).toThrow('PropertyFile \'EvaluationReport\' of step \'EvaluateModel\' names OutputName "metrics", '
      + 'expected one of the step\'s ProcessingOutputConfig.Outputs ("evaluation")');
  });

  test('fails if the PropertyFile is on a later step (one that depends on the gate, or sits in its branches)', () => {
    const dependsOn = gated();
    step(dependsOn, 'EvaluateModel').DependsOn = ['AccuracyGate'];
    expect(() => synth(dependsOn)).toThrow("step 'EvaluateModel' runs after step 'AccuracyGate' (it depends on it), "
      + "expected a PropertyFile of an earlier step: reading it makes 'AccuracyGate' wait for 'EvaluateModel', a cycle");

    const inBranch = gated();
    const evaluate = step(inBranch, 'EvaluateModel');
    inBranch.Steps = inBranch.Steps.filter((s: any) => s !== evaluate);
    step(inBranch, 'AccuracyGate').Arguments.IfSteps.unshift(evaluate);
    expect(() => synth(inBranch)).toThrow("step 'EvaluateModel' runs after step 'AccuracyGate' (it depends on it: it is in its IfSteps)");

    const own = gated();
    const evaluateStep = step(own, 'EvaluateModel');
    evaluateStep.Arguments.Environment = { THRESHOLD: { 'Std:JsonGet': { PropertyFile: { Get: 'Steps.EvaluateModel.PropertyFiles.EvaluationReport' }, Path: 'x' } } };
    expect(() => synth(own)).toThrow("step 'EvaluateModel' Arguments.Environment.THRESHOLD: Std:JsonGet Steps.EvaluateModel.PropertyFiles.EvaluationReport \"x\": reads a property file of its own step");
  });

  test('fails if the PropertyFile reference is not a Get of Steps.<step>.PropertyFiles.<name>', () => {
    const d = gated();
    jsonGet(d).PropertyFile = 'EvaluationReport';
    expect(() => synth(d)).toThrow('PropertyFile is "EvaluationReport", expected {"Get": "Steps.<processing step>.PropertyFiles.<PropertyFileName>"} (or an S3Uri)');
  });

  test.each([
    ['metrics..accuracy', "deep scan '..' selects many values at character 8"],
    ['$.metrics[*].value', "wildcard '[*]' selects many values at character 11"],
    ['metrics.*', "wildcard '*' selects many values at character 9"],
    ['metrics[?(@.name == "accuracy")].value', 'a filter expression selects many values at character 9'],
    ['scores[0:2]', 'an array slice selects many values at character 8'],
    ['scores[0,1]', 'a union of indexes selects many values at character 8'],
    ['scores.length()', "function call 'length()' is not a value in the report at character 14"],
    ['metrics.', "a trailing '.' at character 8"],
    ["metrics['accuracy", "unterminated quoted name in '[' at character 8"],
    ['', 'the path is empty'],
  ])('fails if the path %j is not a single-value JSONPath', (bad, why) => {
    const d = gated();
    jsonGet(d).Path = bad;
    expect(() => synth(d)).toThrow(`Path is not valid: ${why}; expected a single-value JSONPath`);
  });

  test('lists every problem at once and still accepts the S3Uri form with a valid path', () => {
    const d = gated();
    jsonGet(d).Path = 'a..b';
    gate(d).RightValue = { 'Std:JsonGet': { PropertyFile: { Get: 'Steps.Nope.PropertyFiles.X' }, Path: 'y' } };
    expect(() => synth(d)).toThrow(/2 problems:[\s\S]*deep scan[\s\S]*no step is named 'Nope'/);

    const fromS3 = gated();
    gate(fromS3).LeftValue = { 'Std:JsonGet': { S3Uri: 's3://bucket/evaluation.json', Path: 'Output[1]' } };
    expect(() => synth(fromS3)).not.toThrow();
  });
});

describe('PipelineQualityGate.verifyReport', () => {
  const definition = () => PipelineDefinition.fromFile(GATED);
  const withGate = (mutate: (d: Record<string, any>) => void) => {
    const d = gated();
    mutate(d);
    return PipelineDefinition.fromObject(d);
  };

  test('the example report satisfies the example gate (and the throwing and file variants agree)', () => {
    expect(PipelineQualityGate.verifyReport(definition(), 'EvaluationReport', fs.readFileSync(REPORT, 'utf8'))).toEqual([]);
    expect(PipelineQualityGate.verifyReportFile(definition(), 'EvaluateModel.EvaluationReport', REPORT)).toEqual([]);
    expect(() => PipelineQualityGate.assertReport(definition(), 'EvaluationReport', fs.readFileSync(REPORT, 'utf8'))).not.toThrow();
  });

  test('fails if the path is missing from the report, naming where the walk stopped and what is there', () => {
    const r = report();
    delete r.binary_classification_metrics.accuracy;
    expect(PipelineQualityGate.verifyReport(definition(), 'EvaluationReport', JSON.stringify(r))).toEqual([
      "step 'AccuracyGate' Arguments.Conditions[0].LeftValue: Std:JsonGet Steps.EvaluateModel.PropertyFiles.EvaluationReport "
      + '"binary_classification_metrics.accuracy.value": $.binary_classification_metrics.accuracy.value is not in the sample report: '
      + "$.binary_classification_metrics has no member 'accuracy' (it has 'auc')",
    ]);
    expect(() => PipelineQualityGate.assertReport(definition(), 'EvaluationReport', JSON.stringify(r)))
      .toThrow("The sample report does not satisfy the pipeline's quality gate (property file 'EvaluationReport'): 1 problem:");
  });

  test('fails if the value has the wrong type for the comparison (a metric written as a string)', () => {
    const r = report();
    r.binary_classification_metrics.accuracy.value = '0.912';
    expect(PipelineQualityGate.verifyReport(definition(), 'EvaluationReport', JSON.stringify(r))).toEqual([
      expect.stringContaining('the sample report has string "0.912" there, expected a number (GreaterThanOrEqualTo with {"Get":"Parameters.MinAccuracy"})'),
    ]);
  });

  test('the expected type follows the other side: a string literal, an In list, a JsonGet in a step argument', () => {
    const equals = withGate((d) => {
      gate(d).Type = 'Equals';
      gate(d).RightValue = 'pass';
    });
    expect(PipelineQualityGate.verifyReport(equals, 'EvaluationReport', JSON.stringify(report()))).toEqual([
      expect.stringContaining('has number 0.912 there, expected a string (Equals with "pass")'),
    ]);
    const inList = withGate((d) => {
      const left = gate(d).LeftValue;
      step(d, 'AccuracyGate').Arguments.Conditions = [{ Type: 'In', QueryValue: left, Values: [1, 2] }];
    });
    expect(PipelineQualityGate.verifyReport(inList, 'EvaluationReport', JSON.stringify(report()))).toEqual([]);
    const asArgument = withGate((d) => {
      step(d, 'AccuracyGate').Arguments.IfSteps[0].Arguments.ModelApprovalStatus = {
        'Std:JsonGet': { PropertyFile: { Get: 'Steps.EvaluateModel.PropertyFiles.EvaluationReport' }, Path: 'binary_classification_metrics' },
      };
    });
    expect(PipelineQualityGate.verifyReport(asArgument, 'EvaluationReport', JSON.stringify(report()))).toEqual([
      expect.stringContaining("step 'RegisterModel' Arguments.ModelApprovalStatus"),
    ]);
    expect(PipelineQualityGate.verifyReport(asArgument, 'EvaluationReport', JSON.stringify(report()))[0])
      .toContain('has object {"accuracy"');
  });

  test('array indexes, negative indexes and quoted names resolve; an index past the end is reported', () => {
    const d = withGate((x) => {
      jsonGet(x).Path = "$.folds[-1]['f1-score']";
    });
    expect(PipelineQualityGate.verifyReport(d, 'EvaluationReport', JSON.stringify({ folds: [{ 'f1-score': 0.5 }, { 'f1-score': 0.9 }] }))).toEqual([]);
    expect(PipelineQualityGate.verifyReport(d, 'EvaluationReport', JSON.stringify({ folds: [] }))).toEqual([
      expect.stringContaining('$.folds has 0 element(s), so [-1] selects nothing'),
    ]);
  });

  test('fails if no JsonGet reads that property file, or the report is not JSON', () => {
    expect(PipelineQualityGate.verifyReport(definition(), 'Metrics', '{}')).toEqual([
      "propertyFileName: got 'Metrics', expected a property file that a Std:JsonGet of the definition reads ('EvaluateModel.EvaluationReport')",
    ]);
    expect(PipelineQualityGate.verifyReport(definition(), 'EvaluationReport', 'accuracy=0.9')[0])
      .toMatch(/^sampleReportJson: got text that is not JSON \(.+\), expected the evaluation report your script writes$/);
    expect(PipelineQualityGate.verifyReportFile(definition(), 'EvaluationReport', path.join(EXAMPLES, 'missing.json'))[0])
      .toMatch(/^sampleReportFile: cannot read '.*missing\.json'/);
  });
});
