/**
 * SageMaker's OpenAI-compatible route (`/endpoints/{endpoint}[/inference-components/{ic}]/openai/v1/chat/completions`):
 * bearer tokens and a bounded chat client. See docs/openai.md.
 */
export * from './bearer-token';
export * from './chat';
