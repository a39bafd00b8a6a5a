import * as fs from 'fs';
import { PipelineDefinition } from './pipeline-definition';
import { evaluateJsonPath, formatJsonPath, jsonType } from './private/json-path';

/**
 * Proves, in your unit tests, that the quality gate of a pipeline reads what your evaluation script writes: every
 * `Std:JsonGet` of the definition that reads a property file must resolve, in a sample report produced by the script,
 * to a value of the type its condition compares (a number for `GreaterThanOrEqualTo` 0.7, a string for `Equals`
 * "pass", ...). A path that misses or a metric written as `"0.91"` makes the condition step fail at run time, after
 * training has been paid for; here it fails the test.
 *
 * `TrainingPipeline` already checks at synth that each JsonGet names a property file an earlier Processing step
 * declares and that its path is valid; only a sample report can show the path exists in it.
 */
export class PipelineQualityGate {
  /**
   * The problems of the definition's JsonGets that read the named property file, checked against a
   * sample of that file (an evaluation report written by your script). Empty when every such JsonGet resolves to a
   * value of the expected type; also a problem when no JsonGet reads that property file.
   *
   * @param definition the pipeline definition
   * @param propertyFileName the `PropertyFileName` (e.g. `EvaluationReport`), or `<step>.<PropertyFileName>` when two
   *   steps declare property files of that name
   * @param sampleReportJson the report's JSON text, e.g. `fs.readFileSync('evaluation.json', 'utf8')`
   */
  public static verifyReport(definition: PipelineDefinition, propertyFileName: string, sampleReportJson: string): string[] {
    let report: unknown;
    try {
      report = JSON.parse(sampleReportJson);
    } catch (err) {
      return [`sampleReportJson: got text that is not JSON (${(err as Error).message}), expected the evaluation report your script writes`];
    }
    const scan = definition._jsonGets();
    const matches = (producer?: string, name?: string) =>
      name === propertyFileName || (producer !== undefined && `${producer}.${name}` === propertyFileName);
    const readers = scan.jsonGets.filter((g) => matches(g.producerStep, g.propertyFileName));
    if (readers.length === 0) {
      const read = [...new Set(scan.jsonGets.filter((g) => g.propertyFileName).map((g) => `'${g.producerStep}.${g.propertyFileName}'`))];
      return [`propertyFileName: got '${propertyFileName}', expected a property file that a Std:JsonGet of the definition reads (${read.length ? read.join(', ') : 'it reads none'})`];
    }
    const problems: string[] = [];
    for (const g of readers) {
      const label = `step '${g.step}' ${g.location}: Std:JsonGet ${g.reference} ${JSON.stringify(g.path)}`;
      if (!g.segments) {
        problems.push(`${label}: the path is not a valid single-value JSONPath (TrainingPipeline rejects it at synth)`);
        continue;
      }
      const result = evaluateJsonPath(report, g.segments);
      if (!result.found) {
        problems.push(`${label}: ${formatJsonPath(g.segments)} is not in the sample report: ${result.reason}`);
        continue;
      }
      const actual = jsonType(result.value);
      const ok = g.expected === 'primitive' ? ['number', 'string', 'boolean'].includes(actual) : actual === g.expected;
      if (!ok) {
        const expected = g.expected === 'primitive' ? 'a number, string or boolean' : `a ${g.expected}`;
        problems.push(`${label}: the sample report has ${actual} ${JSON.stringify(result.value)} there, expected ${expected} (${g.expectedBecause})`);
      }
    }
    return problems;
  }

  /**
   * The same check as verifying the report, throwing one error that lists every problem.
   *
   * @param definition the pipeline definition
   * @param propertyFileName the `PropertyFileName`, or `<step>.<PropertyFileName>`
   * @param sampleReportJson the report's JSON text
   */
  public static assertReport(definition: PipelineDefinition, propertyFileName: string, sampleReportJson: string): void {
    const problems = PipelineQualityGate.verifyReport(definition, propertyFileName, sampleReportJson);
    if (problems.length > 0) {
      throw new Error(`The sample report does not satisfy the pipeline's quality gate (property file '${propertyFileName}'): ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    }
  }

  /**
   * The same check as verifying the report, with the report read from a file.
   *
   * @param definition the pipeline definition
   * @param propertyFileName the `PropertyFileName`, or `<step>.<PropertyFileName>`
   * @param sampleReportFile path of a sample report written by your evaluation script
   */
  public static verifyReportFile(definition: PipelineDefinition, propertyFileName: string, sampleReportFile: string): string[] {
    let text: string;
    try {
      text = fs.readFileSync(sampleReportFile, 'utf8');
    } catch (err) {
      return [`sampleReportFile: cannot read '${sampleReportFile}' (${(err as Error).message}), expected a sample evaluation report`];
    }
    return PipelineQualityGate.verifyReport(definition, propertyFileName, text);
  }

  private constructor() {}
}
