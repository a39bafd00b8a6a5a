/**
 * Draws docs/rollouts-canary.svg: the blue/green canary sequence of SageMaker's deployment guardrails
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/deployment-guardrails-blue-green-canary.html), with the rollback path
 * the alarms take and what each prop of `Rollout.canary` sets. Graphviz compiled to WebAssembly (@hpcc-js/wasm-graphviz).
 *
 * Run: npx projen rollouts:diagram (writes the SVG; commit it).
 */
import { writeFileSync } from 'fs';
import { join } from 'path';

const DOT = `digraph canary {
  rankdir=LR;
  graph [fontname="Helvetica", fontsize=11, nodesep=0.35, ranksep=0.45, labelloc=t,
         label="Rollout.canary: a CloudFormation update of the endpoint config (UpdateEndpoint with DeploymentConfig)"];
  node  [fontname="Helvetica", fontsize=10, shape=box, style="rounded,filled", fillcolor="#ffffff", color="#555555"];
  edge  [fontname="Helvetica", fontsize=9, color="#555555"];

  start    [label="blue fleet\\n100% of traffic\\n(old model)", fillcolor="#dbe8fb"];
  green    [label="provision the green fleet\\n(new config, full size)", fillcolor="#e3f3e0"];
  canary   [label="canary: size\\n(e.g. 1 instance / 25%)\\ngets its share of traffic", fillcolor="#e3f3e0"];
  bake1    [label="baking period\\n(bakingPeriod =\\nWaitIntervalInSeconds)\\nalarms watched", shape=ellipse, fillcolor="#fff5d6"];
  rest     [label="the rest of the traffic\\nmoves to green", fillcolor="#e3f3e0"];
  bake2    [label="final baking period\\n(finalBakingPeriod =\\nTerminationWaitInSeconds)\\nalarms watched, blue kept", shape=ellipse, fillcolor="#fff5d6"];
  done     [label="blue fleet terminated\\ngreen serves 100%", fillcolor="#c9e8c2"];
  rollback [label="automatic rollback\\n100% of traffic back to blue,\\ngreen terminated; the stack\\nupdate fails", fillcolor="#f8d3cf", color="#b03a2e"];
  timeout  [label="maximumExecutionTime\\nexceeded", shape=note, fillcolor="#f8d3cf", color="#b03a2e"];

  start -> green -> canary -> bake1;
  bake1 -> rest [label="no alarm in ALARM"];
  rest -> bake2;
  bake2 -> done [label="no alarm in ALARM"];
  bake1 -> rollback [label="an autoRollbackOn alarm\\ngoes to ALARM", color="#b03a2e", fontcolor="#b03a2e"];
  bake2 -> rollback [label="an alarm goes to ALARM", color="#b03a2e", fontcolor="#b03a2e"];
  timeout -> rollback [style=dashed, color="#b03a2e"];
  { rank=same; bake1; rollback; }
}`;

async function main(): Promise<void> {
  const { Graphviz } = await import('@hpcc-js/wasm-graphviz');
  const graphviz = await Graphviz.load();
  const svg = graphviz.dot(DOT, 'svg');
  const out = join(__dirname, '..', 'docs', 'rollouts-canary.svg');
  writeFileSync(out, svg);
  console.log(`wrote ${out} (${svg.length} bytes)`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
