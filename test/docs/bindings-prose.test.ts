/**
 * The scanner behind `npx projen pacmak:check`'s prose check (scripts/check-bindings-prose.ts), on a small generated
 * Python module and its assembly (test/docs/fixtures/bindings-prose): it must report every docstring of ours that names
 * one of our members in camelCase or says "undefined", and nothing a dependency wrote.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { Assembly, namedMember, ownMemberNames, scanPython } from '../../scripts/check-bindings-prose';

const FIXTURE = join(__dirname, 'fixtures', 'bindings-prose');
const assembly: Assembly = JSON.parse(readFileSync(join(FIXTURE, 'assembly.json'), 'utf8'));
const python = readFileSync(join(FIXTURE, '__init__.py'), 'utf8');

describe('bindings prose check', () => {
  test('reports each camelCase member span and "undefined" of our docstrings, where Python shows it and where it is written', () => {
    const findings = scanPython('__init__.py', python, assembly);
    expect(findings.map((f) => [f.span, f.source])).toEqual([
      ['instancePools', 'src/variant.ts:3'], // a struct field's :param line
      ['props.instancePools', 'src/variant.ts:3'], // a path, in the property's :default:
      ['undefined', 'src/variant.ts:3'],
      ['grantInvoke()', 'src/endpoint.ts:1'], // a call, in the class docstring
      ['Endpoint.metricInvocations', 'src/endpoint.ts:1'],
      ['instancePools', 'src/variant.ts:3'], // the props struct flattened into the constructor
      ["instanceType: 'ml.g5.xlarge'", 'src/endpoint.ts:12'], // an option as written in an object literal
      ['metricInvocations', 'src/endpoint.ts:12'], // a bare word (the example code below it is not read)
      ['endpointArn', 'src/kind.ts:1'], // an enum member's docstring
    ]);
    const lines = python.split('\n');
    for (const f of findings) expect(lines[f.line - 1]).toContain(f.span);
  });

  test('fails if a camelCase member span of ours is missed', () => {
    const withOneMore = python.replace("'''(experimental) A kind.'''", "'''(experimental) A kind; see ``metricInvocations``.'''");
    const spans = scanPython('__init__.py', withOneMore, assembly).map((f) => f.span);
    expect(spans).toContain('metricInvocations');
    expect(spans).toHaveLength(10);
  });

  test("a dependency's docs repeated in our struct, and the module's README, are not ours to fix", () => {
    const lines = scanPython('__init__.py', python, assembly).map((f) => python.split('\n')[f.line - 1]);
    expect(lines.filter((l) => l.includes('custom hash') || l.includes('README'))).toEqual([]);
  });

  test('AWS API names, environment variables, event JSON paths and names not of our assembly are allowed', () => {
    const own = ownMemberNames(assembly);
    expect([...own].sort()).toEqual(['endpointArn', 'grantInvoke', 'instancePools', 'instanceType', 'metricInvocations']);
    for (const span of ['InstancePools', 'InstanceType', 'AWS_REGION', 'detail.instanceType', 'handler.grantPrincipal', 'myEndpoint', 'x.instanceType = 1']) {
      expect(namedMember(span, own)).toBeUndefined();
    }
    expect(namedMember('grantInvoke(role)', own)).toBe('grantInvoke');
    expect(namedMember('this.instanceType', own)).toBe('instanceType');
    expect(namedMember('instancePools: [pool]', own)).toBe('instancePools');
    expect(namedMember('sagemaker:InvokeEndpoint', own)).toBeUndefined();
  });
});
