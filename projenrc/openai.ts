import { awscdk } from 'projen';

/**
 * Dev dependencies of the OpenAI-compatible route's proofs and examples: the official `openai` SDK (the version range
 * the Strands Agents SDK's OpenAI model provider asks for as its peer) and LangChain.js's OpenAI chat model with its
 * core, which docs/openai.md's examples type-check against.
 */
export function configureOpenAi(project: awscdk.AwsCdkConstructLibrary): void {
  project.addDevDeps('openai@^6.45.0', '@langchain/openai@^1.6.0', '@langchain/core@^1.2.13');
}
