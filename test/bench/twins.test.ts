/**
 * The synth bench (bench/realtime.bench.ts) compares RealtimeEndpoint with raw L1s: the comparison is fair only while
 * the raw twin renders what RealtimeEndpoint renders. Both are held to one template here, logical ids aside.
 */
import { synthOurs } from '../../bench/twins/ours';
import { synthRaw } from '../../bench/twins/raw';

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

test('our twin renders the same template whether the artifacts come by URI or through a bucket imported by name', () => {
  expect(synthOurs(2, 'bucket')).toEqual(synthOurs(2, 'uri'));
});
